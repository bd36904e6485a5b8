package io.agentfuse.gateway.agents;

import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.agentfuse.gateway.agents.AgentGateway.body;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Codex 0.171.0 ({@code codex exec}), unmodified, behind the gateway: a custom provider with
 * {@code wire_api = "responses"}, the gateway's URL and a fake key, in front of the mock provider.
 * Each scenario counts the requests Codex sent and prints how long it ran; none asserts a duration.
 */
class CodexAgentTest {

    @RegisterExtension
    static final AgentGateway gateway = new AgentGateway();
    private static final Path HOME = AgentGateway.home("codex");

    @BeforeAll
    static void start() throws IOException {
        AgentInstall.codex();
        Files.createDirectories(HOME.resolve("work"));
        Files.writeString(HOME.resolve("config.toml"), """
                model_provider = "agentfuse"
                [model_providers.agentfuse]
                name = "agentfuse"
                base_url = "%s/v1"
                env_key = "AGENTFUSE_KEY"
                wire_api = "responses"
                """.formatted(gateway.baseUrl()));
    }



    private AgentRun codex(String scenario, String model) {
        return codex(scenario, model, "Say hi");
    }

    private AgentRun codex(String scenario, String model, String prompt) {
        AgentRun run = AgentRun.of(List.of(AgentInstall.codex().toString(), "exec", "--skip-git-repo-check",
                        "-m", model, prompt),
                Map.of("HOME", HOME.toString(), "CODEX_HOME", HOME.toString(), "AGENTFUSE_KEY", "sk-test-not-a-real-key"),
                HOME.resolve("work"));
        AgentGateway.report("codex", scenario, gateway.agentRequests(), run);
        return run;
    }


    @Test
    void aStreamedAnswerComesBackThroughTheResponsesApi() {
        AgentRun run = codex("plain, streamed", "gpt-codex");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.upstream()).singleElement().satisfies(sent -> {
            assertThat(sent.path()).isEqualTo(MockProvider.RESPONSES_PATH);
            assertThat(body(sent).getBoolean("stream")).isTrue();
            assertThat(body(sent).containsKey("client_metadata")).isTrue(); // same dialect: passed through
        });
    }

    @Test
    void aToolRoundTripSendsTheCallsOutputBack() {
        gateway.harness.mock.scriptForModel("gpt-codex-1", MockStep.builder()
                .toolCall("call_1", "get_goal", new JsonObject()).build());

        AgentRun run = codex("tool round trip", "gpt-codex");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(gateway.agentRequests()).isEqualTo(2);
        assertThat(body(gateway.upstream().get(1)).encode()).contains("function_call_output").contains("call_1");
    }

    @Test
    void anImageItViewedFallsBackToClaudeThatSeesTheImage() throws IOException {
        // A 1x1 PNG in the working directory, which the model asks Codex to view
        Path picture = HOME.resolve("work").resolve("pixel.png");
        Files.write(picture, java.util.Base64.getDecoder().decode(
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="));
        gateway.harness.mock.scriptForModel("gpt-cross-1",
                MockStep.builder().toolCall("call_1", "view_image", new JsonObject().put("path", picture.toString())).build(),
                MockStep.builder().status(500).times(2).build());

        AgentRun run = codex("image, cross-dialect fallback", "gpt-cross", "What is in pixel.png?");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(2);
        JsonObject sent = body(gateway.harness.mock.requestsFor("claude-lenient-1").get(0));
        assertThat(sent.getJsonArray("messages").stream().map(JsonObject.class::cast)
                .flatMap(message -> message.getValue("content") instanceof JsonArray blocks ? blocks.stream() : Stream.empty())
                .map(JsonObject.class::cast).filter(block -> "tool_result".equals(block.getString("type")))
                .map(JsonObject::encode))
                .anySatisfy(result -> assertThat(result).contains("\"call_1\"").contains("\"media_type\":\"image/png\""));
    }

    /**
     * An outage in the middle of a session with tools: the Claude fallback's tool_use reaches Codex as a
     * function call of the Responses API, Codex runs it, and its output goes back to Claude as a tool_result.
     */
    @Test
    void aToolCallOfTheClaudeFallbackIsRunByCodexAndItsOutputSentBack() {
        gateway.harness.mock.scriptForModel("gpt-cross-1", MockStep.builder().status(500).times(4).build());
        gateway.harness.mock.scriptForModel("claude-lenient-1",
                MockStep.builder().toolCall("toolu_1", "get_goal", new JsonObject()).build(),
                MockStep.builder().text("The goal is read.").build());

        AgentRun run = codex("tool call of a cross-dialect fallback", "gpt-cross");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("The goal is read.");
        assertThat(gateway.agentRequests()).isEqualTo(2);
        List<RecordedRequest> fallback = gateway.harness.mock.requestsFor("claude-lenient-1");
        assertThat(fallback).hasSize(2);
        assertThat(body(fallback.get(1)).getJsonArray("messages").stream().map(JsonObject.class::cast)
                .flatMap(message -> message.getValue("content") instanceof JsonArray blocks ? blocks.stream() : Stream.empty())
                .map(JsonObject.class::cast).map(JsonObject::encode))
                .anySatisfy(block -> assertThat(block).contains("\"tool_use\"").contains("\"toolu_1\"").contains("get_goal"))
                .anySatisfy(block -> assertThat(block).contains("\"tool_result\"").contains("\"tool_use_id\":\"toolu_1\""));
    }

    @Test
    void aFailingModelFallsBackWithinTheDialect() {
        gateway.harness.mock.scriptForModel("gpt-codex-1", MockStep.builder().status(500).times(2).build());

        AgentRun run = codex("same-dialect fallback", "gpt-codex");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("gpt-4o-mini")).hasSize(1);
    }

    @Test
    void aFailingModelFallsBackToALenientClaudeModelWithItsNamespaceFlattenedAndMetadataDropped() {
        gateway.harness.mock.scriptForModel("gpt-cross-1", MockStep.builder().status(500).times(2).build());

        AgentRun run = codex("cross-dialect fallback", "gpt-cross");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("claude-lenient-1")).singleElement().satisfies(sent -> {
            assertThat(sent.path()).isEqualTo(MockProvider.ANTHROPIC_PATH);
            String written = body(sent).encode();
            assertThat(written).doesNotContain("client_metadata").doesNotContain("\"web_search\"")
                    .contains("multi_agent_v1__");
            assertThat(body(sent).getInteger("max_tokens")).as("Codex sets no limit: what the model writes, not 4 096")
                    .isEqualTo(64_000);
        });
    }

    @Test
    void aStrictClaudeFallbackCannotTakeCodexsWebSearchAndSaysSoAtOnce() {
        gateway.harness.mock.scriptForModel("gpt-strict-1", MockStep.builder().status(500).times(2).build());

        AgentRun run = codex("cross-dialect, strict step", "gpt-strict");

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(gateway.harness.mock.requestsFor("claude-haiku-4-5")).isEmpty();
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
        assertThat(run.output()).contains("web_search");
    }

    @Test
    void aStormOfServerErrorsWithNoFallbackEndsItAfterFewRequests() {
        gateway.harness.mock.scriptForModel("gpt-lone-1", MockStep.builder().status(500).times(100).build());

        AgentRun run = codex("500 storm, no fallback", "gpt-lone");

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
    }

    @Test
    void anOpenBreakerEndsItAfterFewRequests() {
        gateway.open("gpt-lone");

        AgentRun run = codex("open breaker", "gpt-lone");

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
        assertThat(gateway.upstream()).isEmpty();
    }

    @Test
    void aShort429IsWaitedOutByTheGateway() {
        gateway.harness.mock.scriptForModel("gpt-codex-1", MockStep.builder().status(429).retryAfter("1").build());

        AgentRun run = codex("429 then answer", "gpt-codex");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("gpt-codex-1")).hasSize(2);
    }

    @Test
    void aStreamCutAfterItsFirstBytesIsReconnectedAndAnswered() {
        gateway.harness.mock.scriptForModel("gpt-codex-1", MockStep.builder()
                .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(2).build());

        AgentRun run = codex("stream cut", "gpt-codex");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isBetween(2L, 3L);
        assertThat(run.output()).doesNotContain("io_uring");
    }
}
