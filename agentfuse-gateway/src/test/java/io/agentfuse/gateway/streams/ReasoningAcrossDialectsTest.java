package io.agentfuse.gateway.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.ReasoningChatProvider;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A reasoning model of an OpenAI-compatible server (DeepSeek's {@code reasoning_content}) behind the
 * gateway: its reasoning reaches a Chat caller as it comes, and meets the first-token limit; a
 * Messages caller — Claude Code pointed at such a model — cannot be shown it, so to that caller the
 * reasoning is the model at work, not the answer (docs/design.md §13), and a provider that falls
 * over while it reasons is retried unseen. The provider reasons for 15 steps 100 ms apart, longer
 * than the 1 s first-token limit whatever the machine's load; the idle limit (10 s) is far above a
 * step. Outcomes only; no durations.
 */
class ReasoningAcrossDialectsTest {

    private static final int STEPS = 15;
    private static final String CONFIG = """
            server:
              port: 0
            providers:
              reasoner: { type: openai, baseUrl: "http://127.0.0.1:REASONER_PORT/v1", apiKey: "%s" }
            retry:
              maxAttempts: 2
              initialDelay: 10ms
            models:
              deepseek-reasoner: { provider: reasoner, firstTokenTimeout: 1s, streamIdleTimeout: 10s }
            """.formatted(ReasoningChatProvider.API_KEY);

    private static Vertx providerVertx;
    private static ReasoningChatProvider provider;
    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        providerVertx = Vertx.vertx();
        provider = Await.result(ReasoningChatProvider.start(providerVertx, STEPS, Duration.ofMillis(100), 0));
        harness = GatewayHarness.start(CONFIG.replace("REASONER_PORT", Integer.toString(provider.port())));
    }

    @AfterAll
    static void stop() {
        harness.close();
        Await.result(providerVertx.close());
    }

    @BeforeEach
    void noCuts() {
        provider.cutNext(0);
    }

    @Test
    void aMessagesCallerWhoseProviderFallsOverWhileReasoningGetsTheAnswerOfTheRetry() {
        provider.cutNext(1);
        int before = provider.requests();

        StreamReply reply = harness.client.stream("/v1/messages", messagesRequest(), Map.of("anthropic-version", "2023-06-01"));

        assertThat(reply.status()).as(reply.data()).isEqualTo(200);
        assertThat(reply.data()).contains(ReasoningChatProvider.ANSWER).doesNotContain("\"error\"");
        assertThat(reply.events()).last().extracting(SseEvent::event).isEqualTo("message_stop");
        assertThat(reply.events()).filteredOn(event -> "message_start".equals(event.event())).hasSize(1);
        assertThat(provider.requests() - before).as("the cut call and its retry").isEqualTo(2);
    }

    @Test
    void reasoningLongerThanTheFirstTokenLimitIsTheModelAtWorkNotAStall() {
        int before = provider.requests();

        StreamReply reply = harness.client.stream("/v1/messages", messagesRequest(), Map.of("anthropic-version", "2023-06-01"));

        assertThat(reply.status()).as(reply.data()).isEqualTo(200);
        assertThat(reply.data()).contains(ReasoningChatProvider.ANSWER).doesNotContain("Step 0.");
        assertThat(provider.requests() - before).as("one call: no retry").isEqualTo(1);
    }

    @Test
    void aChatCallerIsShownTheReasoningAsItComes() {
        JsonObject request = new JsonObject().put("model", "deepseek-reasoner").put("stream", true)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Think it over.")));

        StreamReply reply = harness.client.stream("/v1/chat/completions", request, Map.of());

        assertThat(reply.status()).as(reply.data()).isEqualTo(200);
        assertThat(reply.events()).filteredOn(event -> event.data().contains("\"reasoning_content\":\"Step")).hasSize(STEPS);
        assertThat(reply.data()).contains(ReasoningChatProvider.ANSWER);
        assertThat(reply.events()).last().matches(SseEvent::isDone);
    }

    private static JsonObject messagesRequest() {
        return new JsonObject().put("model", "deepseek-reasoner").put("max_tokens", 4096).put("stream", true)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Think it over.")));
    }
}
