package io.agentfuse.gateway.upstream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UpstreamClientTest {

    private Vertx vertx;
    private MockProvider mock;
    private UpstreamClient client;
    private ProviderEndpoint openAi;
    private ProviderEndpoint anthropic;

    @BeforeEach
    void start() {
        vertx = GatewayVertx.create();
        mock = Await.result(MockProvider.start(vertx, 0));
        client = new UpstreamClient(vertx, UpstreamClientOptions.defaults());
        openAi = new ProviderEndpoint("openai", Dialects.OPENAI, mock.openAiBaseUrl(), "sk-test-openai");
        anthropic = new ProviderEndpoint("anthropic", Dialects.ANTHROPIC, mock.anthropicBaseUrl(), "sk-test-anthropic");
    }

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    private static JsonObject body(String model) {
        return new JsonObject().put("model", model).put("max_tokens", 50)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    private UpstreamResponse send(ProviderEndpoint provider) {
        return Await.result(client.send(UpstreamRequest.of(provider, body("m")), Duration.ofSeconds(10)));
    }

    private Throwable sendFailure(ProviderEndpoint provider, Duration timeout) {
        return Await.failure(client.send(UpstreamRequest.of(provider, body("m")), timeout));
    }

    @Test
    void sendsOpenAiRequestWithBearerKeyToChatCompletions() {
        send(openAi);

        RecordedRequest received = mock.requests().get(0);
        assertThat(received.path()).isEqualTo("/v1/chat/completions");
        assertThat(received.header("authorization")).contains("Bearer sk-test-openai");
        assertThat(received.jsonBody()).contains(body("m"));
    }

    @Test
    void sendsAnthropicRequestWithApiKeyAndVersion() {
        send(anthropic);

        RecordedRequest received = mock.requests().get(0);
        assertThat(received.path()).isEqualTo("/v1/messages");
        assertThat(received.header("x-api-key")).contains("sk-test-anthropic");
        assertThat(received.header("anthropic-version")).contains("2023-06-01");
        assertThat(received.header("authorization")).isEmpty();
    }

    @Test
    void sendsTheProvidersOwnHeadersOverTheForwardedOnesButNeverOverItsKey() {
        ProviderEndpoint withHeaders = new ProviderEndpoint("anthropic", Dialects.ANTHROPIC, mock.anthropicBaseUrl(),
                "sk-test-anthropic", Map.of("x-team", "agents", "anthropic-beta", "from-provider", "x-api-key", "sneaky"));

        Await.result(client.send(new UpstreamRequest(withHeaders, body("m"), Map.of("anthropic-beta", "from-caller")),
                Duration.ofSeconds(10)));

        RecordedRequest received = mock.requests().get(0);
        assertThat(received.header("x-team")).contains("agents");
        assertThat(received.header("anthropic-beta")).contains("from-provider");
        assertThat(received.header("x-api-key")).contains("sk-test-anthropic");
    }

    @Test
    void returnsBodyAndReportedUsage() {
        mock.script(MockStep.builder().text("Hello").inputTokens(11).outputTokens(4).build());

        UpstreamResponse answer = send(anthropic);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.usage()).isEqualTo(Usage.of(11, 4));
        assertThat(answer.json().getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("Hello");
    }

    @Test
    void cancellableSendHandsOnWhatTheMapperMadeOfTheAnswer() throws Exception {
        mock.script(MockStep.builder().text("Hello").inputTokens(11).outputTokens(4).build());

        Usage usage = client.sendCancellable(UpstreamRequest.of(anthropic, body("m")), Duration.ofSeconds(10),
                UpstreamResponse::usage).get(10, TimeUnit.SECONDS);

        assertThat(usage).isEqualTo(Usage.of(11, 4));
    }

    @Test
    void cancellableSendFailsWithWhatTheMapperThrew() {
        mock.script(MockStep.builder().text("Hello").build());
        IllegalStateException refused = new IllegalStateException("not this answer");

        var answer = client.sendCancellable(UpstreamRequest.of(openAi, body("m")), Duration.ofSeconds(10),
                response -> { throw refused; });

        assertThatThrownBy(() -> answer.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isSameAs(refused);
    }

    @Test
    void failsServerErrorAsHttpStatusExceptionWithBody() {
        mock.script(MockStep.builder().status(500).build());

        Throwable failure = sendFailure(openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.status()).isEqualTo(500);
            assertThat(e.body()).hasValueSatisfying(body -> assertThat(body).contains("server_error"));
        });
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void failsRateLimitWithRetryAfterHeaders() {
        mock.script(MockStep.builder().status(429).retryAfter("7").retryAfterMs("6500").build());

        Throwable failure = sendFailure(openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.retryAfter()).contains("7");
            assertThat(e.retryAfterMs()).contains("6500");
        });
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void failsRateLimitWithTheResetHeadersAndTheShouldRetryVerdict() {
        mock.script(MockStep.builder().status(429).header("x-ratelimit-remaining-requests", "0")
                .header("x-ratelimit-reset-requests", "6m0s").header("x-should-retry", "false")
                .header("x-request-id", "req_1").build());

        Throwable failure = sendFailure(openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.header("x-ratelimit-reset-requests")).contains("6m0s");
            assertThat(e.header("x-request-id")).isEmpty();
            assertThat(e.shouldRetry()).contains(false);
        });
        assertThat(RetryAfter.ofError(failure, System.currentTimeMillis())).isEqualTo(Duration.ofMinutes(6).toNanos());
    }

    @Test
    void failsAnthropicOverloadAsOverloaded() {
        mock.script(MockStep.builder().status(529).build());

        assertThat(OutcomeClassifier.defaults().classify(sendFailure(anthropic, Duration.ofSeconds(10))))
                .isEqualTo(Outcome.OVERLOADED);
    }

    @Test
    void failsLateAnswerWithCallTimeout() {
        mock.script(MockStep.builder().delayMs(2000).build());

        Throwable failure = sendFailure(openAi, Duration.ofMillis(200));

        assertThat(failure).isInstanceOf(CallTimeoutException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void aCallCancelledWhileWaitingForAConnectionIsNeverSent() throws Exception {
        assertNotSentWhenItEndsWhileWaiting(second -> second.cancel(true), CancellationException.class);
    }

    @Test
    void aCallTimingOutWhileWaitingForAConnectionIsNeverSent() throws Exception {
        assertNotSentWhenItEndsWhileWaiting(second -> { }, CallTimeoutException.class);
    }

    /**
     * Regression: the request a call leased after it had ended was reset with no handler for its
     * failure, and Vert.x logged "ERROR HttpClientRequestImpl: Stream reset: 0" for each caller that
     * left while its call waited for a connection: a normal event, logged as an error.
     */
    @Test
    void aCallThatEndsWhileWaitingForAConnectionLogsNoError() throws Exception {
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        lines.start();
        root.addAppender(lines);
        try {
            assertNotSentWhenItEndsWhileWaiting(second -> second.cancel(true), CancellationException.class);
        } finally {
            root.detachAppender(lines);
        }

        synchronized (lines.list) {
            assertThat(lines.list).filteredOn(line -> line.getLevel() == Level.ERROR)
                    .extracting(ILoggingEvent::getFormattedMessage).isEmpty();
        }
    }

    /**
     * With one connection per host, a first call holds it while a second one waits for it and ends
     * (as {@code end} makes it, or by its own 100 ms timeout): the provider never sees the second,
     * and a third call after the first is answered.
     */
    private void assertNotSentWhenItEndsWhileWaiting(Consumer<CompletableFuture<UpstreamResponse>> end,
                                                     Class<? extends Throwable> failure) throws Exception {
        client = new UpstreamClient(vertx, new UpstreamClientOptions(Duration.ofSeconds(10), 1));
        mock.script(MockStep.builder().delayMs(1_000).build());
        List<CompletableFuture<UpstreamResponse>> calls = new ArrayList<>();
        Context one = vertx.getOrCreateContext(); // one event loop: one pool, one connection
        Await.result(Future.<Void>future(started -> one.runOnContext(v -> {
            calls.add(client.sendCancellable(UpstreamRequest.of(openAi, body("first")), Duration.ofSeconds(10), r -> r));
            calls.add(client.sendCancellable(UpstreamRequest.of(openAi, body("second")), Duration.ofMillis(100), r -> r));
            end.accept(calls.get(1));
            started.complete();
        })));

        assertThat(calls.get(1).handle((answer, error) -> error).get(20, TimeUnit.SECONDS)).isInstanceOf(failure);
        assertThat(Await.result(Future.fromCompletionStage(calls.get(0))).status()).isEqualTo(200);
        Await.result(Future.<UpstreamResponse>future(third -> one.runOnContext(v ->
                client.send(UpstreamRequest.of(openAi, body("third")), Duration.ofSeconds(10)).onComplete(third))));

        assertThat(mock.requests()).extracting(request -> request.jsonBody().orElseThrow().getString("model"))
                .containsExactly("first", "third");
    }

    @Test
    void failsDroppedConnectionAsConnectionError() {
        mock.script(MockStep.builder().drop(MockStep.Drop.BEFORE_RESPONSE).build());

        Throwable failure = sendFailure(openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOf(UpstreamConnectionException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void failsRefusedConnectionAsConnectionError() {
        int port = mock.port();
        Await.result(mock.close());
        ProviderEndpoint gone = new ProviderEndpoint("gone", Dialects.OPENAI, "http://127.0.0.1:" + port + "/v1", null);

        Throwable failure = sendFailure(gone, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOf(ConnectException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void completesEveryCallMadeConcurrentlyFromThreadsOutsideVertx() throws Exception {
        // Calls wired from threads outside Vert.x must still read every body (see UpstreamClient#callContext).
        int threads = 8;
        int callsPerThread = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<java.util.concurrent.Future<Integer>> statuses = new ArrayList<>();
        try {
            for (int i = 0; i < threads * callsPerThread; i++) {
                statuses.add(pool.submit(() -> {
                    start.await();
                    return send(openAi).status();
                }));
            }
            start.countDown();
            for (java.util.concurrent.Future<Integer> status : statuses) {
                assertThat(status.get(30, TimeUnit.SECONDS)).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(mock.requests()).hasSize(threads * callsPerThread);
    }

    @Test
    void neverShowsApiKeyInEndpointDescription() {
        assertThat(openAi.toString()).doesNotContain("sk-test-openai").contains("***");
    }

    @Test
    void rejectsRelativeBaseUrlNamingIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new ProviderEndpoint("x", Dialects.OPENAI, "api.openai.com/v1", "k"))
                .hasMessage("baseUrl must be an absolute http(s) URL, but was api.openai.com/v1");
    }
}
