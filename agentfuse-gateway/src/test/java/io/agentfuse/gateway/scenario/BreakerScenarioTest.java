package io.agentfuse.gateway.scenario;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** A model's breaker, seen through the gateway: trip, fail fast, half-open, recover; tokens too. */
class BreakerScenarioTest {

    private static final String LONG_OPEN = GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 1m");
    private static final String TOKEN_LIMIT = LONG_OPEN.replace("consecutive5xx: 3",
            "consecutive5xx: 3\n    tokenOveruse: { maxTokensPerCall: 100 }");

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private Reply askHaiku() {
        return harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));
    }

    @Test
    void tripsAfterThreeServerErrorsThenFailsFastWithoutCallingTheProvider() {
        harness = GatewayHarness.start(LONG_OPEN);
        harness.mock.defaultStep(MockStep.builder().status(500).build());
        for (int i = 0; i < 3; i++) {
            assertThat(askHaiku().status()).isEqualTo(502);
        }

        Reply rejected = askHaiku();

        assertThat(harness.breaker("claude-haiku-4").state()).isEqualTo(CircuitState.OPEN);
        assertThat(rejected.status()).isEqualTo(503);
        assertThat(rejected.json().getJsonObject("error").getString("type")).isEqualTo("circuit_open");
        assertThat(rejected.header("retry-after")).isNotNull();
        assertThat(harness.mock.requests()).hasSize(3);
    }

    /**
     * The breakers run on the gateway's injected clock, so the open time passes when the test says
     * so: on the system clock the breaker could half-open before the test saw it open (300 ms of a
     * loaded machine between the third failure and the look), and a poll every 50 ms kept asking
     * after the probe had closed it, so the provider counted more calls than the one probe.
     */
    @Test
    void halfOpensAfterTheResetTimeoutAndClosesWhenTheProbeSucceeds() {
        ManualClock clock = new ManualClock();
        harness = GatewayHarness.start(GatewayHarness.CONFIG, GatewayOptions.builder().port(0).clock(clock).build());
        harness.mock.script(MockStep.builder().status(500).times(3).build());
        for (int i = 0; i < 3; i++) {
            askHaiku();
        }
        Reply whileOpen = askHaiku();
        CircuitState beforeTheResetTimeout = harness.breaker("claude-haiku-4").state();
        clock.advance(Duration.ofMillis(300)); // the resetTimeout of GatewayHarness.CONFIG
        CircuitState afterIt = harness.breaker("claude-haiku-4").state();

        Reply probe = askHaiku();

        assertThat(whileOpen.status()).isEqualTo(503);
        assertThat(beforeTheResetTimeout).isEqualTo(CircuitState.OPEN);
        assertThat(afterIt).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(probe.status()).isEqualTo(200);
        assertThat(harness.breaker("claude-haiku-4").state()).isEqualTo(CircuitState.CLOSED);
        assertThat(harness.mock.requests()).hasSize(4); // three failures and the one probe: the 503 called nobody
    }

    @Test
    void anAnswerOverTheTokenLimitIsDeliveredButOpensTheBreaker() {
        harness = GatewayHarness.start(TOKEN_LIMIT);
        harness.mock.script(MockStep.builder().inputTokens(90).outputTokens(60).build());

        Reply answered = askHaiku();
        Reply next = askHaiku();

        assertThat(answered.status()).isEqualTo(200);
        assertThat(answered.json().getJsonObject("usage").getLong("output_tokens")).isEqualTo(60);
        assertThat(harness.breaker("claude-haiku-4").snapshot().reason()).contains("tokenOveruse");
        assertThat(next.status()).isEqualTo(503);
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void aStreamOverTheTokenLimitOpensTheBreakerWhenItEnds() {
        harness = GatewayHarness.start(TOKEN_LIMIT);
        harness.mock.script(MockStep.builder().chunks("a", "b").inputTokens(90).outputTokens(60).build());

        StreamReply streamed = harness.client.stream("/v1/chat/completions", openAiRequest("claude-haiku-4", true), Map.of());

        assertThat(streamed.status()).isEqualTo(200);
        assertThat(streamed.events().get(streamed.events().size() - 1).isDone()).isTrue();
        assertThat(harness.breaker("claude-haiku-4").state()).isEqualTo(CircuitState.OPEN);
        assertThat(harness.breaker("claude-haiku-4").snapshot().reason()).contains("tokenOveruse");
    }

    @Test
    void anAnswerWithinTheTokenLimitLeavesTheBreakerClosed() {
        harness = GatewayHarness.start(TOKEN_LIMIT);
        harness.mock.script(MockStep.builder().inputTokens(50).outputTokens(50).build());

        askHaiku();

        assertThat(harness.breaker("claude-haiku-4").state()).isEqualTo(CircuitState.CLOSED);
    }
}
