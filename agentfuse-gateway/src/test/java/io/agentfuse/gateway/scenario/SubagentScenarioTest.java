package io.agentfuse.gateway.scenario;

import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.HangUp;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Requests with {@code x-agentfuse-subagent}: the {@code subagents:} section's limit, deadline and fallbacks. */
class SubagentScenarioTest {

    private static final Map<String, String> SUBAGENT = Map.of("x-agentfuse-subagent", "researcher-1");
    private static final String SUBAGENTS = GatewayHarness.CONFIG + """
            subagents:
              maxConcurrent: 2
              defaultTimeout: 10s
              fallbacks: [gpt-4o-mini, null]
            """;

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private Future<Reply> askInBackground(Map<String, String> headers) {
        return harness.vertx.executeBlocking(() ->
                harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), headers));
    }

    @Test
    void atMostMaxConcurrentSubagentCallsAreInFlight() {
        harness = GatewayHarness.start(SUBAGENTS);
        harness.mock.defaultStep(MockStep.builder().delayMs(1_500).build());
        Future<Reply> first = askInBackground(SUBAGENT);
        Future<Reply> second = askInBackground(SUBAGENT);
        Eventually.holds(harness.vertx, () -> harness.mock.requests().size() == 2);

        Reply third = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), SUBAGENT);
        Reply mainAgent = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(third.status()).isEqualTo(429);
        assertThat(third.json().getJsonObject("error").getString("type")).isEqualTo("subagent_limit");
        assertThat(third.header("retry-after")).isEqualTo("1");
        assertThat(mainAgent.status()).isEqualTo(200);
        assertThat(Await.result(first).status()).isEqualTo(200);
        assertThat(Await.result(second).status()).isEqualTo(200);
        assertThat(harness.mock.requests()).hasSize(3);
    }

    @Test
    void aFinishedSubagentCallFreesItsPlace() {
        harness = GatewayHarness.start(SUBAGENTS);

        for (int i = 0; i < 5; i++) {
            assertThat(harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), SUBAGENT).status())
                    .isEqualTo(200);
        }

        // The place is freed when the exchange ends on the gateway's event loop, which may be just after the client has the answer.
        Eventually.holds(harness.vertx, () -> harness.gateway.runtime().subagentBulkhead().inFlight() == 0);
    }

    @Test
    void aSubagentThatHangsUpFreesItsPlace() {
        harness = GatewayHarness.start(SUBAGENTS);
        harness.mock.defaultStep(MockStep.builder().delayMs(10_000).build());

        harness.client.hangUp("/v1/messages", anthropicRequest("claude-haiku-4", false), SUBAGENT, HangUp.AFTER_SENDING);

        Eventually.holds(harness.vertx, () -> harness.gateway.runtime().subagentBulkhead().inFlight() == 0
                && !harness.mock.requests().isEmpty());
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void aSubagentFallsBackAlongSubagentFallbacksWhenItsModelHasNone() {
        harness = GatewayHarness.start(SUBAGENTS);
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).times(2).build());

        Reply subagent = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), SUBAGENT);
        Reply mainAgent = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(subagent.status()).isEqualTo(200);
        assertThat(subagent.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(mainAgent.status()).isEqualTo(502);
    }

    @Test
    void aSubagentCallOverItsDeadlineIs504() {
        harness = GatewayHarness.start(SUBAGENTS.replace("defaultTimeout: 10s", "defaultTimeout: 300ms"));
        harness.mock.defaultStep(MockStep.builder().delayMs(10_000).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), SUBAGENT);

        assertThat(reply.status()).as(reply.body()).isEqualTo(504);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("timeout");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("subagents.defaultTimeout");
        Eventually.holds(harness.vertx, () -> harness.mock.requests().get(0).clientDisconnected());
    }
}
