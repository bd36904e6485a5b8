package io.agentfuse.gateway.agents;

import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * opencode 1.18.33 ({@code opencode run}), unmodified, behind the gateway: a provider of the Vercel
 * AI SDK's {@code @ai-sdk/anthropic} whose base URL is the gateway, with a fake key. It decides its
 * retries by the AI SDK's rules (status and {@code Retry-After}), and so is told final refusals as
 * 400. Each scenario counts the requests opencode sent and prints how long it ran.
 */
class OpencodeAgentTest {

    @RegisterExtension
    static final AgentGateway gateway = new AgentGateway();
    private static final Path HOME = AgentGateway.home("opencode");

    @BeforeAll
    static void start() throws IOException {
        AgentInstall.opencode();
        Path config = HOME.resolve(".config/opencode/opencode.json");
        Files.createDirectories(config.getParent());
        Files.createDirectories(HOME.resolve("work"));
        Files.writeString(config, """
                {
                  "provider": {
                    "agentfuse": {
                      "npm": "@ai-sdk/anthropic",
                      "name": "agentfuse",
                      "options": { "baseURL": "%s/v1", "apiKey": "sk-test-not-a-real-key" },
                      "models": { "claude-sonnet-4": { "name": "Claude through agentfuse" },
                                  "claude-lone": { "name": "A Claude without fallback" } }
                    }
                  },
                  "autoupdate": false,
                  "share": "disabled"
                }
                """.formatted(gateway.baseUrl()));
    }

    private AgentRun opencode(String scenario, String model) {
        AgentRun run = AgentRun.of(List.of(AgentInstall.opencode().toString(), "run", "--model", "agentfuse/" + model,
                        "Say hi"),
                Map.of("HOME", HOME.toString(), "OPENCODE_DISABLE_AUTOUPDATE", "1", "OPENCODE_DISABLE_MODELS_FETCH", "1"),
                HOME.resolve("work"));
        AgentGateway.report("opencode", scenario, gateway.agentRequests(), run);
        return run;
    }

    @Test
    void aTurnIsAnsweredThroughTheGateway() {
        AgentRun run = opencode("plain, streamed", "claude-sonnet-4");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isBetween(1L, 2L); // the turn, and a title for the session
    }

    @Test
    void aFailingModelFallsBackWithinTheDialect() {
        gateway.harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).times(2).build());

        AgentRun run = opencode("same-dialect fallback", "claude-sonnet-4");

        assertThat(run.output()).as(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.harness.mock.requestsFor("claude-haiku-4-5")).hasSize(1);
    }

    @Test
    void aStormOfServerErrorsWithNoFallbackEndsTheTurnAfterFewRequests() {
        gateway.harness.mock.scriptForModel("claude-lone-1", MockStep.builder().status(500).times(100).build());

        AgentRun run = opencode("500 storm, no fallback", "claude-lone");

        assertThat(run.output()).doesNotContain(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
    }

    @Test
    void anOpenBreakerEndsTheTurnAfterFewRequests() {
        gateway.open("claude-lone");

        AgentRun run = opencode("open breaker", "claude-lone");

        assertThat(run.output()).doesNotContain(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
        assertThat(gateway.upstream()).isEmpty();
    }
}
