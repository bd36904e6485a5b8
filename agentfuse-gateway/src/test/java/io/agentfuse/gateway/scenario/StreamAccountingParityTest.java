package io.agentfuse.gateway.scenario;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream relayed by the gateway is accounted like a stream of the LangChain4j and Spring AI
 * decorators: its whole duration and its usage reach the model's breaker when it ends, so a slow
 * stream counts for {@code consecutiveTimeouts} and {@code slowCallRate}, and a token-heavy one for
 * {@code tokenOveruse}.
 *
 * <p>The gateway runs on the system clock, without a race: the mock provider waits
 * {@value #PAUSE_MS} ms between the two pieces of each slow stream, so no stream can end sooner
 * than that after it began, however busy the machine; the threshold is far below it.
 */
class StreamAccountingParityTest {

    private static final long PAUSE_MS = 300;

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private CircuitBreaker start(String trigger) {
        harness = GatewayHarness.start(GatewayHarness.CONFIG
                .replace("resetTimeout: 300ms", "resetTimeout: 5m\n    " + trigger)
                .replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                        "gpt-4o-mini: { provider: openai, fallbacks: [null] }"));
        return harness.breaker("gpt-4o-mini");
    }

    private StreamReply stream() {
        return harness.client.stream("/v1/chat/completions", openAiRequest("gpt-4o-mini", true), Map.of());
    }

    @Test
    void twoSlowStreamsInARowTripConsecutiveTimeouts() {
        CircuitBreaker breaker = start("consecutiveTimeouts: { count: 2, slowerThan: 50ms }");

        streamTwiceSlowly();

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("consecutiveTimeouts");
    }

    @Test
    void slowStreamsTripTheSlowCallRate() {
        CircuitBreaker breaker = start("slowCallRate: { window: 2, minCalls: 2, threshold: 50%, slowerThan: 50ms }");

        streamTwiceSlowly();

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("slowCallRate");
    }

    @Test
    void aStreamOverTheTokenLimitTripsTokenOveruseWhenItEnds() {
        CircuitBreaker breaker = start("tokenOveruse: { maxTokensPerCall: 1000 }");
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().chunks("many ", "tokens").inputTokens(5000).build());

        StreamReply streamed = stream();

        assertThat(streamed.events().get(streamed.events().size() - 1).isDone()).isTrue();
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("tokenOveruse");
    }

    /** Streams two answers that each pause {@link #PAUSE_MS} between their pieces, to their end. */
    private void streamTwiceSlowly() {
        harness.mock.scriptForModel("gpt-4o-mini",
                MockStep.builder().chunks("slow ", "answer").chunkDelayMs(PAUSE_MS).times(2).build());
        for (int i = 0; i < 2; i++) {
            StreamReply streamed = stream();
            assertThat(streamed.events().get(streamed.events().size() - 1).isDone()).isTrue();
        }
    }
}
