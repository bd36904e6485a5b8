package io.agentfuse.gateway.upstream;

import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.ConnectException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call through the {@link UpstreamClient} that fails: each failure is an exception the default
 * classifier reads as its outcome, with what the provider said about retrying kept.
 */
class UpstreamClientFailuresTest {

    @RegisterExtension
    final UpstreamHarness upstream = new UpstreamHarness();

    @Test
    void failsServerErrorAsHttpStatusExceptionWithBody() {
        upstream.mock.script(MockStep.builder().status(500).build());

        Throwable failure = upstream.sendFailure(upstream.openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.status()).isEqualTo(500);
            assertThat(e.body()).hasValueSatisfying(body -> assertThat(body).contains("server_error"));
        });
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void failsRateLimitWithRetryAfterHeaders() {
        upstream.mock.script(MockStep.builder().status(429).retryAfter("7").retryAfterMs("6500").build());

        Throwable failure = upstream.sendFailure(upstream.openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.retryAfter()).contains("7");
            assertThat(e.retryAfterMs()).contains("6500");
        });
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void failsRateLimitWithTheResetHeadersAndTheShouldRetryVerdict() {
        upstream.mock.script(MockStep.builder().status(429).header("x-ratelimit-remaining-requests", "0")
                .header("x-ratelimit-reset-requests", "6m0s").header("x-should-retry", "false")
                .header("x-request-id", "req_1").build());

        Throwable failure = upstream.sendFailure(upstream.openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.header("x-ratelimit-reset-requests")).contains("6m0s");
            assertThat(e.header("x-request-id")).isEmpty();
            assertThat(e.shouldRetry()).contains(false);
        });
        assertThat(RetryAfter.ofError(failure, System.currentTimeMillis())).isEqualTo(Duration.ofMinutes(6).toNanos());
    }

    @Test
    void failsAnthropicOverloadAsOverloaded() {
        upstream.mock.script(MockStep.builder().status(529).build());

        assertThat(OutcomeClassifier.defaults().classify(upstream.sendFailure(upstream.anthropic, Duration.ofSeconds(10))))
                .isEqualTo(Outcome.OVERLOADED);
    }

    @Test
    void failsLateAnswerWithCallTimeout() {
        upstream.mock.script(MockStep.builder().delayMs(2000).build());

        Throwable failure = upstream.sendFailure(upstream.openAi, Duration.ofMillis(200));

        assertThat(failure).isInstanceOf(CallTimeoutException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void failsDroppedConnectionAsConnectionError() {
        upstream.mock.script(MockStep.builder().drop(MockStep.Drop.BEFORE_RESPONSE).build());

        Throwable failure = upstream.sendFailure(upstream.openAi, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOf(UpstreamConnectionException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void failsRefusedConnectionAsConnectionError() {
        int port = upstream.mock.port();
        Await.result(upstream.mock.close());
        ProviderEndpoint gone = new ProviderEndpoint("gone", Dialects.OPENAI, "http://127.0.0.1:" + port + "/v1", null);

        Throwable failure = upstream.sendFailure(gone, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOf(ConnectException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }
}
