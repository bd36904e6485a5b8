package io.agentfuse.gateway.scenario;

import io.agentfuse.core.breaker.Rejection;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** The seed's retry policy through the gateway, with its waits scaled down from seconds to milliseconds. */
class RetryScenarioTest {

    /** The seed's 4 attempts, waiting 20, 40, 80 ms; no breaker trigger fires within 4 server errors. */
    private static final String SEED_RETRY = GatewayHarness.CONFIG
            .replace("maxAttempts: 1", "maxAttempts: 4")
            .replace("consecutive5xx: 3", "consecutive5xx: off");

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void retriesAServerErrorFourTimesInAllThenGivesUpWithTheLastError() {
        harness = GatewayHarness.start(SEED_RETRY);
        harness.mock.defaultStep(MockStep.builder().status(500).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-haiku-4=SERVER_ERROR(HTTP 500)");
        assertThat(harness.mock.requests()).hasSize(4);
    }

    @Test
    void aRetryThatSucceedsAnswersAsIfNothingHappened() {
        harness = GatewayHarness.start(SEED_RETRY);
        harness.mock.script(MockStep.builder().status(503).times(2).build(), MockStep.builder().text("third time").build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).contains("third time");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("3");
        assertThat(reply.header("x-agentfuse-fallbacks")).isNull();
    }

    @Test
    void aTruncatedAnswerIsRetriedAndTheGoodAnswerReachesTheClient() {
        harness = GatewayHarness.start(SEED_RETRY);
        harness.mock.script(MockStep.builder().body("{\"id\":\"m1\",\"type\":\"mess").build(),
                MockStep.builder().text("whole this time").build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).contains("whole this time");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("2");
        assertThat(reply.header("x-agentfuse-fallbacks")).isNull();
        assertThat(harness.mock.requests()).hasSize(2);
    }

    @Test
    void aClientErrorIsNeverRetried() {
        harness = GatewayHarness.start(SEED_RETRY);
        harness.mock.defaultStep(MockStep.builder().status(422).build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("1");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void honoursRetryAfterBeforeRetryingARateLimit() {
        // The backoff alone would retry after 20 ms; Retry-After asks for 2 s. A marker request
        // sent once the first attempt has arrived must therefore reach the provider before the retry.
        harness = GatewayHarness.start(SEED_RETRY);
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(429).retryAfter("2").build());

        Future<Reply> limited = harness.vertx.executeBlocking(() ->
                harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false)));
        Eventually.holds(harness.vertx, () -> harness.requestsFor("claude-haiku-4-5") == 1);
        Reply marker = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
        Reply reply = Await.result(limited);

        assertThat(marker.status()).isEqualTo(200);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("2");
        List<String> order = harness.mock.requests().stream()
                .map(request -> request.jsonBody().orElseThrow().getString("model")).toList();
        assertThat(order).containsExactly("claude-haiku-4-5", "gpt-4o-mini", "claude-haiku-4-5");
        List<RecordedRequest> haiku = harness.mock.requests().stream()
                .filter(request -> request.body().contains("claude-haiku-4-5")).toList();
        assertThat(haiku.get(1).receivedAt()).isAfterOrEqualTo(haiku.get(0).receivedAt());
    }

    @Test
    void aRateLimitWhoseResetIsMinutesAwayFallsOverAtOnceAndHoldsTheBreakerOpen() {
        // OpenAI's way of saying "not for six minutes": no Retry-After, the reset of the exhausted
        // limit. Longer than maxDelay (5 s): not waited out, the chain falls over at once.
        harness = GatewayHarness.start(SEED_RETRY);
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(429)
                .header("x-ratelimit-remaining-requests", "0").header("x-ratelimit-reset-requests", "6m0s")
                .header("x-ratelimit-remaining-tokens", "149000").header("x-ratelimit-reset-tokens", "20ms").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(harness.requestsFor("gpt-4o-mini")).isEqualTo(1);
        Rejection open = harness.breaker("gpt-4o-mini").rejection();
        assertThat(open).isNotNull();
        assertThat(open.retryAfter()).hasValueSatisfying(wait -> assertThat(wait).isGreaterThan(Duration.ofMinutes(5)));
    }
}
