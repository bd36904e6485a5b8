package io.agentfuse.gateway.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.ThinkingProvider;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A model that thinks aloud for longer than {@code firstTokenTimeout} — Claude with extended thinking,
 * as Claude Code asks for it — is producing, not stalled: its thinking reaches the caller as it
 * comes, and the answer follows on the same call (docs/design.md §13). Its provider thinks for 25
 * steps 100 ms apart, two and a half times the 1 s first-token limit, whatever the machine's load;
 * the idle limit (10 s) is far above a step. Outcomes only; no durations.
 */
class ThinkingStreamTest {

    private static final int STEPS = 25;
    private static final String CONFIG = """
            server:
              port: 0
            providers:
              thinker: { type: anthropic, baseUrl: "http://127.0.0.1:THINKER_PORT", apiKey: "%s" }
            retry:
              maxAttempts: 1
            models:
              claude-thinks: { provider: thinker, upstreamModel: claude-sonnet-4-5, firstTokenTimeout: 1s, streamIdleTimeout: 10s }
            """.formatted(ThinkingProvider.API_KEY);

    private static Vertx providerVertx;
    private static ThinkingProvider provider;
    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        providerVertx = Vertx.vertx();
        provider = Await.result(ThinkingProvider.start(providerVertx, STEPS, Duration.ofMillis(100)));
        harness = GatewayHarness.start(CONFIG.replace("THINKER_PORT", Integer.toString(provider.port())));
    }

    @AfterAll
    static void stop() {
        harness.close();
        Await.result(providerVertx.close());
    }

    @Test
    void aModelThatThinksLongerThanTheFirstTokenLimitIsRelayedAsItThinks() {
        int before = provider.requests();
        JsonObject request = new JsonObject().put("model", "claude-thinks").put("max_tokens", 4096).put("stream", true)
                .put("thinking", new JsonObject().put("type", "enabled").put("budget_tokens", 2048))
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Think it over.")));

        StreamReply reply = harness.client.stream("/v1/messages", request, Map.of("anthropic-version", "2023-06-01"));

        assertThat(reply.status()).as(reply.data()).isEqualTo(200);
        assertThat(reply.cutOff()).as("a clean end of the body").isFalse();
        assertThat(reply.events()).filteredOn(event -> event.data().contains("\"thinking_delta\"")).hasSize(STEPS);
        assertThat(reply.data()).contains(ThinkingProvider.ANSWER).doesNotContain("\"error\"");
        assertThat(reply.events()).last().extracting(SseEvent::event).isEqualTo("message_stop");
        assertThat(provider.requests() - before).as("one call: no retry, no fallback").isEqualTo(1);
    }
}
