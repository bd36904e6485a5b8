package io.agentfuse.gateway.sdk;

import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway and mock that the SDK tests point real client libraries at, with one-model chains
 * so that each failure reaches the client as the gateway's own error:
 * <ul>
 *   <li>{@code claude-haiku-4} (Anthropic) and {@code gpt-4o-mini} (OpenAI): plain one-step chains;</li>
 *   <li>{@code claude-slow} / {@code gpt-slow}: the same providers with a 300 ms timeout, for 504
 *       (the mock then answers after two minutes, so the timeout is met however busy the machine);</li>
 *   <li>{@code claude-long-open}: a breaker that stays open 5 minutes (Retry-After over 20 s);
 *       the others stay open 10 s: a Retry-After short enough to be worth waiting for.</li>
 * </ul>
 * A test that needs a breaker it opened to be still open when its SDK call comes runs the gateway
 * on a clock that stands still ({@link #onAStillClock()}); one whose SDK waits out the open time
 * runs it on the system clock.
 */
final class SdkGateway implements AutoCloseable {

    static final String CONFIG = """
            server:
              port: 0
              adminToken: "test-admin-token"
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
            retry:
              maxAttempts: 1
            breakers:
              default:
                consecutive5xx: 3
                resetTimeout: 10s
              longOpen:
                consecutive5xx: 3
                resetTimeout: 5m
            models:
              claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
              gpt-4o-mini: { provider: openai }
              claude-slow: { provider: anthropic, upstreamModel: claude-haiku-4-5, timeout: 300ms }
              gpt-slow: { provider: openai, upstreamModel: gpt-4o-mini, timeout: 300ms }
              claude-long-open: { provider: anthropic, upstreamModel: claude-long-open, breaker: longOpen }
              gpt-long-open: { provider: openai, upstreamModel: gpt-long-open, breaker: longOpen }
            """;

    final GatewayHarness harness;

    /** A gateway whose breakers run on the system clock. */
    SdkGateway() {
        this(Clock.system());
    }

    private SdkGateway(Clock clock) {
        harness = GatewayHarness.start(CONFIG, GatewayOptions.builder().port(0).clock(clock).build());
    }

    /** A gateway whose breakers run on a clock nothing advances: a breaker opened stays open. */
    static SdkGateway onAStillClock() {
        return new SdkGateway(new ManualClock());
    }

    /** The base URL clients use (no path). */
    String baseUrl() {
        return harness.gateway.baseUrl();
    }

    /** Opens {@code model}'s breaker with three failed calls (sent by the test, not by the SDK). */
    void trip(String model, String upstreamModel) {
        harness.mock.scriptForModel(upstreamModel, MockStep.builder().status(500).times(3).build());
        long before = requests();
        for (int i = 0; i < 3; i++) {
            harness.client.post("/v1/messages", anthropicRequest(model, false));
        }
        // The count is taken on the event loop that served each request, possibly just after the
        // client read the answer: wait for it, so that callers start counting from a settled value.
        assertRequestsReceived(before + 3);
        assertThat(harness.breaker(model).state().name()).isEqualTo("OPEN");
    }

    /** Every model call fails upstream with a 500 (the gateway answers 502). */
    void upstreamFails() {
        harness.mock.defaultStep(MockStep.builder().status(500).build());
    }

    /** Every model call answers after two minutes (the slow models time out: 504). */
    void upstreamHangs() {
        harness.mock.defaultStep(MockStep.builder().delayMs(120_000).build());
    }

    /** Every streamed answer breaks after its first piece. */
    void streamsBreak() {
        harness.mock.defaultStep(MockStep.builder().chunks("Hel", "lo ", "there").drop(MockStep.Drop.MID_STREAM)
                .dropAfterChunks(1).build());
    }

    /** Model requests the gateway has answered so far. */
    long requests() {
        return harness.gatewayRequests();
    }

    /** Waits until the gateway has answered {@code expected} requests in all, then checks it is exactly that. */
    void assertRequestsReceived(long expected) {
        Eventually.holds(harness.vertx, () -> requests() >= expected);
        assertThat(requests()).isEqualTo(expected);
    }

    @Override
    public void close() {
        harness.close();
    }
}
