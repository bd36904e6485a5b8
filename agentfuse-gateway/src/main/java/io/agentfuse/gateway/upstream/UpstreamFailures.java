package io.agentfuse.gateway.upstream;

import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;

import java.io.IOException;

/**
 * The one place where transport failures of provider calls become the exceptions that
 * {@link io.agentfuse.core.OutcomeClassifier} understands: non-2xx answers become
 * {@link UpstreamStatusException} (with the answer's retry hints — {@code Retry-After},
 * {@code retry-after-ms}, the rate-limit headers, {@code x-should-retry} — and its content type),
 * except 401/403, which become {@link UpstreamAuthException}; broken
 * connections {@link UpstreamConnectionException}; refused connections and other
 * {@link IOException}s stay as they are. Stateless.
 */
final class UpstreamFailures {

    private UpstreamFailures() {
    }

    /**
     * The exception for a non-2xx answer of {@code provider} with {@code body}: a 401 or 403 is the
     * provider refusing the gateway's own key, never the caller's fault.
     */
    static RuntimeException status(ProviderEndpoint provider, HttpClientResponse response, String body) {
        if (response.statusCode() == 401 || response.statusCode() == 403) {
            return new UpstreamAuthException(provider.name(), response.statusCode());
        }
        return UpstreamStatusException.builder(response.statusCode()).body(body)
                .retryHints(response.headers()).answerHeaders(response.headers())
                .contentType(response.getHeader("content-type")).build();
    }

    /** The exception a failed call of {@code provider} ends with. */
    static Throwable transport(Throwable error, ProviderEndpoint provider) {
        if (error instanceof HttpClosedException || error instanceof StreamResetException) {
            return new UpstreamConnectionException("connection to provider " + provider.name() + " was closed", error);
        }
        return error;
    }
}
