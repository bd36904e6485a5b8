package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hedging in the gateway (docs/design.md §13): claude-sonnet-4 with {@code hedge} races its
 * fallback claude-haiku-4 when no first content came in time. Outcomes only: who answered, who was
 * cancelled, what was recorded; never how long it took.
 */
class HedgeScenarioTest {

    /** A call whose first content would come long after every hedge delay of these tests. */
    private static final MockStep STALLS = MockStep.builder().delayMs(60_000).build();
    private static final MockStep STREAM_STALLS = MockStep.builder().firstChunkDelayMs(60_000).build();

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private void start(String sonnetSettings) {
        harness = GatewayHarness.start(GatewayHarness.configWithPrimary(sonnetSettings));
    }

    @Test
    void givenAStalledCompleteCall_whenTheHedgeAnswers_thenTheCallerGetsItsAnswerAndTheLoserIsCancelledUnjudged() {
        start("hedge: { after: 200ms, maxShare: 100% }");
        harness.mock.scriptForModel("claude-sonnet-4-5", STALLS);
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("from the hedge").build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).contains("from the hedge");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-hedged")).isEqualTo("claude-haiku-4");
        Eventually.holds(harness.vertx, () -> harness.mock.requestsFor("claude-sonnet-4-5").get(0).clientDisconnected());
        assertThat(harness.breaker("claude-sonnet-4").snapshot().counts())
                .as("the loser is neither a success nor a failure")
                .containsEntry("consecutiveErrors", 0L).containsEntry("consecutiveTimeouts", 0L);
    }

    @Test
    void givenAStreamWithoutFirstToken_whenTheHedgeStreams_thenTheHedgesStreamIsRelayedAndTheStalledOneReset() {
        start("hedge: { after: 200ms, maxShare: 100% }");
        harness.mock.scriptForModel("claude-sonnet-4-5", STREAM_STALLS);
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().chunks("hedged ", "stream").build());

        StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("claude-sonnet-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.data()).contains("hedged ", "stream");
        assertThat(reply.cutOff()).isFalse();
        assertThat(reply.header("x-agentfuse-hedged")).isEqualTo("claude-haiku-4");
        Eventually.holds(harness.vertx, () -> harness.mock.requestsFor("claude-sonnet-4-5").get(0).clientDisconnected());
        assertThat(harness.breaker("claude-sonnet-4").snapshot().counts())
                .containsEntry("consecutiveErrors", 0L).containsEntry("consecutiveTimeouts", 0L);
    }

    @Test
    void givenAFastFirstStep_whenItAnswersBeforeTheHedgeDelay_thenNoHedgeIsStarted() {
        start("hedge: { after: 30s, maxShare: 100% }");

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-sonnet-4");
        assertThat(reply.header("x-agentfuse-hedged")).isNull();
        assertThat(harness.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void givenAHedgeBeyondMaxShare_whenTheFirstStepStalls_thenNoHedgeStartsAndTheChainFallsBackAsUsual() {
        // One request in the window: 10 % of it is no whole hedge.
        start("hedge: { after: 100ms, maxShare: 10% }\n    timeout: 500ms");
        harness.mock.scriptForModel("claude-sonnet-4-5", STALLS);
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("plain fallback").build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-hedged")).as("the hedge was refused").isNull();
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-sonnet-4=TIMEOUT");
        assertThat(harness.breaker("claude-sonnet-4").snapshot().counts()).containsEntry("consecutiveTimeouts", 1L);
    }

    @Test
    void givenManyStalledRequests_whenMaxShareIsHalf_thenAtMostHalfOfThemAreHedged() {
        start("hedge: { after: 100ms, maxShare: 50% }\n    timeout: 500ms");
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().delayMs(60_000).times(4).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().times(4).build());

        int hedged = 0;
        for (int i = 0; i < 4; i++) {
            Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
            hedged += reply.header("x-agentfuse-hedged") != null ? 1 : 0;
        }

        assertThat(hedged).isBetween(1, 2);
    }
}
