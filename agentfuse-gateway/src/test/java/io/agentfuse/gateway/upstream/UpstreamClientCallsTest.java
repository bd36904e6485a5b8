package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.upstream.UpstreamHarness.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A call through the {@link UpstreamClient} to the mock providers: the request each dialect's provider
 * gets (its path, key and headers), the answer and usage it hands back, also from many threads at once.
 */
class UpstreamClientCallsTest {

    @RegisterExtension
    final UpstreamHarness upstream = new UpstreamHarness();

    @Test
    void sendsOpenAiRequestWithBearerKeyToChatCompletions() {
        upstream.send(upstream.openAi);

        RecordedRequest received = upstream.mock.requests().get(0);
        assertThat(received.path()).isEqualTo("/v1/chat/completions");
        assertThat(received.header("authorization")).contains("Bearer sk-test-openai");
        assertThat(received.jsonBody()).contains(body("m"));
    }

    @Test
    void sendsAnthropicRequestWithApiKeyAndVersion() {
        upstream.send(upstream.anthropic);

        RecordedRequest received = upstream.mock.requests().get(0);
        assertThat(received.path()).isEqualTo("/v1/messages");
        assertThat(received.header("x-api-key")).contains("sk-test-anthropic");
        assertThat(received.header("anthropic-version")).contains("2023-06-01");
        assertThat(received.header("authorization")).isEmpty();
    }

    @Test
    void sendsTheProvidersOwnHeadersOverTheForwardedOnesButNeverOverItsKey() {
        ProviderEndpoint withHeaders = new ProviderEndpoint("anthropic", Dialects.ANTHROPIC, upstream.mock.anthropicBaseUrl(),
                "sk-test-anthropic", Map.of("x-team", "agents", "anthropic-beta", "from-provider", "x-api-key", "sneaky"));

        Await.result(upstream.client.send(new UpstreamRequest(withHeaders, body("m"), Map.of("anthropic-beta", "from-caller")),
                Duration.ofSeconds(10)));

        RecordedRequest received = upstream.mock.requests().get(0);
        assertThat(received.header("x-team")).contains("agents");
        assertThat(received.header("anthropic-beta")).contains("from-provider");
        assertThat(received.header("x-api-key")).contains("sk-test-anthropic");
    }

    @Test
    void returnsBodyAndReportedUsage() {
        upstream.mock.script(MockStep.builder().text("Hello").inputTokens(11).outputTokens(4).build());

        UpstreamResponse answer = upstream.send(upstream.anthropic);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.usage()).isEqualTo(Usage.of(11, 4));
        assertThat(answer.json().getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("Hello");
    }

    @Test
    void cancellableSendHandsOnWhatTheMapperMadeOfTheAnswer() throws Exception {
        upstream.mock.script(MockStep.builder().text("Hello").inputTokens(11).outputTokens(4).build());

        Usage usage = upstream.client.sendCancellable(UpstreamRequest.of(upstream.anthropic, body("m")), Duration.ofSeconds(10),
                UpstreamResponse::usage).get(10, TimeUnit.SECONDS);

        assertThat(usage).isEqualTo(Usage.of(11, 4));
    }

    @Test
    void cancellableSendFailsWithWhatTheMapperThrew() {
        upstream.mock.script(MockStep.builder().text("Hello").build());
        IllegalStateException refused = new IllegalStateException("not this answer");

        var answer = upstream.client.sendCancellable(UpstreamRequest.of(upstream.openAi, body("m")), Duration.ofSeconds(10),
                response -> { throw refused; });

        assertThatThrownBy(() -> answer.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isSameAs(refused);
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
                    return upstream.send(upstream.openAi).status();
                }));
            }
            start.countDown();
            for (java.util.concurrent.Future<Integer> status : statuses) {
                assertThat(status.get(30, TimeUnit.SECONDS)).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(upstream.mock.requests()).hasSize(threads * callsPerThread);
    }

    @Test
    void neverShowsApiKeyInEndpointDescription() {
        assertThat(upstream.openAi.toString()).doesNotContain("sk-test-openai").contains("***");
    }

    @Test
    void rejectsRelativeBaseUrlNamingIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new ProviderEndpoint("x", Dialects.OPENAI, "api.openai.com/v1", "k"))
                .hasMessage("baseUrl must be an absolute http(s) URL, but was api.openai.com/v1");
    }
}
