package io.agentfuse.gateway.agents;

import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.agents.AgentGateway.body;
import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gemini CLI 0.61.0 ({@code gemini -p}), unmodified, behind the gateway's Gemini API with only
 * {@code GOOGLE_GEMINI_BASE_URL} and a fake {@code GEMINI_API_KEY}, served by Anthropic and OpenAI
 * models of the mock provider. Each scenario counts the requests Gemini CLI sent and prints how long
 * it ran; none asserts a duration.
 */
class GeminiCliAgentTest {

    @RegisterExtension
    static final AgentGateway gateway = new AgentGateway();
    private static final Path HOME = AgentGateway.home("gemini-cli");

    @BeforeAll
    static void start() throws IOException {
        AgentInstall.geminiCli();
        Path settings = HOME.resolve(".gemini/settings.json");
        Files.createDirectories(settings.getParent());
        Files.createDirectories(HOME.resolve("work"));
        Files.writeString(settings, """
                {
                  "security": { "auth": { "selectedType": "gemini-api-key" } },
                  "privacy": { "usageStatisticsEnabled": false },
                  "telemetry": { "enabled": false },
                  "general": { "disableAutoUpdate": true, "disableUpdateNag": true }
                }
                """);
    }

    private AgentRun gemini(String scenario, String model, String prompt) {
        return gemini(scenario, model, prompt, Map.of());
    }

    private AgentRun gemini(String scenario, String model, String prompt, Map<String, String> moreEnvironment) {
        Map<String, String> environment = new HashMap<>(Map.of("HOME", HOME.toString(),
                "GEMINI_API_KEY", "gemini-test-not-a-real-key",
                "GOOGLE_GEMINI_BASE_URL", gateway.baseUrl(),
                "GEMINI_CLI_NO_RELAUNCH", "true",
                "GEMINI_CLI_TRUST_WORKSPACE", "true",
                "GEMINI_TELEMETRY_ENABLED", "false",
                "NO_BROWSER", "true"));
        environment.putAll(moreEnvironment);
        AgentRun run = AgentRun.of(List.of(AgentInstall.modernNodeBin().resolve("node").toString(),
                        AgentInstall.geminiCli().toString(), "-m", model, "-p", prompt),
                environment, HOME.resolve("work"));
        AgentGateway.report("gemini-cli", scenario, gateway.agentRequests(), run);
        return run;
    }

    @Test
    void aPromptIsAnsweredByAnAnthropicModelThroughTheGateway() {
        AgentRun run = gemini("plain, Anthropic model", "claude-haiku-4", "Say hi");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.harness.mock.requestsFor("claude-haiku-4-5")).isNotEmpty().allSatisfy(sent -> {
            assertThat(sent.path()).isEqualTo("/v1/messages");
            assertThat(sent.headers()).doesNotContainKey("x-goog-api-key");
        });
    }

    @Test
    void aPromptIsAnsweredByAnOpenAiModelThroughTheGateway() {
        AgentRun run = gemini("plain, OpenAI model", "gpt-4o-mini", "Say hi");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.harness.mock.requestsFor("gpt-4o-mini")).isNotEmpty()
                .allSatisfy(sent -> assertThat(body(sent).getBoolean("stream")).isTrue());
    }

    @Test
    void aFailingModelFallsBackAcrossDialects() {
        gateway.harness.mock.scriptForModel("claude-cross-1", MockStep.builder().status(500).times(2).build());

        AgentRun run = gemini("cross-dialect fallback", "claude-cross", "Say hi");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.harness.mock.requestsFor("gpt-4o-mini")).isNotEmpty();
    }

    /**
     * A tool round trip across dialects: the Anthropic model's tool_use reaches Gemini CLI as its own
     * functionCall, Gemini CLI reads the file, and its functionResponse goes back to Claude as a tool_result.
     */
    @Test
    void aToolCallOfAnAnthropicModelIsRunByGeminiCliAndItsResultSentBack() throws IOException {
        Path notes = HOME.resolve("work").resolve("gemini-notes.txt");
        Files.writeString(notes, "the gemini cli read 23\n");
        gateway.harness.mock.scriptForModel("claude-haiku-4-5",
                MockStep.builder().toolCall("toolu_1", "read_file", new JsonObject().put("file_path", notes.toString())).build(),
                MockStep.builder().text("The file says 23.").build());

        AgentRun run = gemini("tool round trip, Anthropic model", "claude-haiku-4", "Read gemini-notes.txt");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("The file says 23.");
        assertThat(gateway.harness.mock.requestsFor("claude-haiku-4-5")).hasSizeGreaterThanOrEqualTo(2)
                .anySatisfy(sent -> assertThat(body(sent).encode()).contains("\"tool_result\"")
                        .contains("\"tool_use_id\":\"toolu_1\"").contains("the gemini cli read 23"));
    }

    @Test
    void anOpenBreakerEndsTheTurnWithoutRetrying() {
        gateway.open("claude-lone");

        AgentRun run = gemini("open breaker", "claude-lone", "Say hi");

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.output()).doesNotContain(MockStep.DEFAULT_TEXT).contains("open circuit breaker");
        assertThat(gateway.agentRequests()).isEqualTo(1); // a final refusal: Gemini CLI does not retry a 400
        assertThat(gateway.upstream()).isEmpty();
    }

    /**
     * A spent budget (its window ends tomorrow) is a 429 that Gemini CLI would retry ten times; the
     * time until the window ends, as Google's {@code RetryInfo}, makes it stop at the first.
     */
    @Test
    void aSpentBudgetEndsTheTurnAtTheFirstRefusal() {
        Map<String, String> tenant = Map.of("x-agentfuse-tenant", "gemini-spent");
        int spending = 0;
        while (gateway.harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), tenant).status() == 200) {
            assertThat(++spending).as("the budget of one token is spent by the first answer").isLessThan(3);
        }
        gateway.reset();

        AgentRun run = gemini("budget spent", "claude-haiku-4", "Say hi",
                Map.of("GEMINI_CLI_CUSTOM_HEADERS", "x-agentfuse-tenant: gemini-spent"));

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).doesNotContain(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).as(run.output()).isEqualTo(1);
        assertThat(gateway.upstream()).isEmpty();
    }

    @Test
    void theRequestSentKeepsTheGeminiToolsItCanTranslate() {
        AgentRun run = gemini("tools translated", "claude-haiku-4", "Say hi");

        assertThat(run.exitCode()).as(run.output()).isZero();
        JsonObject sent = body(gateway.harness.mock.requestsFor("claude-haiku-4-5").get(0));
        assertThat(sent.getJsonArray("tools")).isNotEmpty();
        assertThat(sent.getValue("system")).isNotNull();
    }
}
