package io.agentfuse.springai;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.timeout.CallTimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.ai.retry.NonTransientAiException;
import org.springframework.ai.retry.TransientAiException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring AI's and Spring web's own exceptions, as the core classifier sees them after translation. */
class ModelFailuresTest {

    private static Outcome outcomeOf(RuntimeException error) {
        return OutcomeClassifier.defaults().classify(ModelFailures.translate(error));
    }

    @Test
    void restClientRateLimitKeepsStatusAndRetryAfter() {
        HttpHeaders headers = new HttpHeaders();
        headers.add("Retry-After", "12");
        var error = HttpClientErrorException.create(HttpStatus.TOO_MANY_REQUESTS, "Too Many Requests", headers,
                "{\"error\":\"slow down\"}".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);

        RuntimeException translated = ModelFailures.translate(error);

        assertThat(translated).isInstanceOfSatisfying(UpstreamHttpException.class, http -> {
            assertThat(http.status()).isEqualTo(429);
            assertThat(http.retryAfter()).contains("12");
            assertThat(http.body()).contains("{\"error\":\"slow down\"}");
            assertThat(http.original()).isSameAs(error);
        });
        assertThat(outcomeOf(error)).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void restClientServerErrorIsAServerError() {
        var error = HttpServerErrorException.create(HttpStatus.BAD_GATEWAY, "Bad Gateway", HttpHeaders.EMPTY, null, null);

        assertThat(outcomeOf(error)).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void restClientBadRequestIsAClientError() {
        var error = HttpClientErrorException.create(HttpStatus.BAD_REQUEST, "Bad Request", HttpHeaders.EMPTY, null, null);

        assertThat(outcomeOf(error)).isEqualTo(Outcome.CLIENT_ERROR);
    }

    @Test
    void unauthorizedAndForbiddenAreRefusedKeys() {
        var unauthorized = HttpClientErrorException.create(HttpStatus.UNAUTHORIZED, "Unauthorized", HttpHeaders.EMPTY, null, null);
        var forbidden = WebClientResponseException.create(403, "Forbidden", HttpHeaders.EMPTY, new byte[0], null);

        assertThat(ModelFailures.translate(unauthorized)).isInstanceOfSatisfying(ModelAuthException.class,
                auth -> assertThat(auth.status()).isEqualTo(401));
        assertThat(ModelFailures.translate(forbidden)).isInstanceOfSatisfying(ModelAuthException.class,
                auth -> assertThat(auth.status()).isEqualTo(403));
        assertThat(outcomeOf(unauthorized)).isEqualTo(Outcome.ERROR);
    }

    @Test
    void aModelItsProviderDoesNotServeIsTheApplicationsConfigurationAndFallsBack() {
        var retired = HttpClientErrorException.create(HttpStatus.NOT_FOUND, "Not Found", HttpHeaders.EMPTY,
                "{\"error\":{\"code\":\"model_not_found\",\"message\":\"The model `gpt-5` does not exist\"}}"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8), null);

        assertThat(ModelFailures.translate(retired)).isInstanceOfSatisfying(ModelNotServedException.class, gone -> {
            assertThat(gone.original()).isSameAs(retired);
            assertThat(gone.getMessage()).contains("The model `gpt-5` does not exist");
        });
        Outcome outcome = outcomeOf(retired);
        assertThat(outcome).isEqualTo(Outcome.ERROR);
        assertThat(outcome.isRetryableByDefault()).isFalse();
        assertThat(outcome.isFallbackByDefault()).isTrue();
    }

    @Test
    void webClientOverloadedIsOverloaded() {
        var error = WebClientResponseException.create(529, "Overloaded", HttpHeaders.EMPTY, new byte[0], null);

        assertThat(outcomeOf(error)).isEqualTo(Outcome.OVERLOADED);
    }

    @Test
    void springAiRetryExceptionsAreReadByTheStatusInTheirMessage() {
        assertThat(outcomeOf(new TransientAiException("429 - {\"error\":\"rate limited\"}"))).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(outcomeOf(new TransientAiException("503 - overloaded, try later"))).isEqualTo(Outcome.OVERLOADED);
        assertThat(outcomeOf(new NonTransientAiException("404 - no such model"))).isEqualTo(Outcome.ERROR);
        assertThat(outcomeOf(new NonTransientAiException("401 - invalid key"))).isEqualTo(Outcome.ERROR);
    }

    @Test
    void springAiRetryExceptionsWithoutAStatusFollowTheirKind() {
        assertThat(outcomeOf(new TransientAiException("the model is busy"))).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(outcomeOf(new NonTransientAiException("the prompt is invalid"))).isEqualTo(Outcome.CLIENT_ERROR);
    }

    @Test
    void refusedConnectionsAndSocketTimeoutsInsideAnyWrapper() {
        var refused = new ResourceAccessException("I/O error", new ConnectException("Connection refused"));
        var slow = new IllegalStateException("call failed", new ResourceAccessException("I/O error",
                new SocketTimeoutException("Read timed out")));

        assertThat(ModelFailures.translate(refused)).isInstanceOf(UpstreamIoException.class);
        assertThat(outcomeOf(refused)).isEqualTo(Outcome.CONNECTION_ERROR);
        assertThat(outcomeOf(slow)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void whatAgentfuseAlreadyKnowsIsLeftAlone() {
        var timeout = new CallTimeoutException(Duration.ofSeconds(3));
        var http = new HttpStatusException(500);
        var unknown = new IllegalArgumentException("no");

        assertThat(ModelFailures.translate(timeout)).isSameAs(timeout);
        assertThat(ModelFailures.translate(http)).isSameAs(http);
        assertThat(ModelFailures.translate(unknown)).isSameAs(unknown);
        assertThat(outcomeOf(unknown)).isEqualTo(Outcome.ERROR);
    }

    @Test
    void theOriginalIsWhatTheClientThrew() {
        var error = HttpClientErrorException.create(HttpStatus.BAD_REQUEST, "Bad Request", HttpHeaders.EMPTY, null, null);

        assertThat(ModelFailures.original(ModelFailures.translate(error))).isSameAs(error);
        assertThat(ModelFailures.original(error)).isSameAs(error);
    }
}
