package io.agentfuse.gateway.upstream;

import io.vertx.core.MultiMap;
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
        return status(provider, response.statusCode(), response.headers(), body);
    }

    /** The exception a non-2xx answer ({@code status}, {@code headers}, {@code body}) of {@code provider} ends with. */
    static RuntimeException status(ProviderEndpoint provider, int status, MultiMap headers, String body) {
        if (status == 401 || status == 403) {
            return new UpstreamAuthException(provider.name(), status);
        }
        return UpstreamStatusException.builder(status).body(body)
                .retryHints(headers).answerHeaders(headers)
                .contentType(headers.get("content-type")).build();
    }

    /** The exception a failed call of {@code provider} ends with. */
    static Throwable transport(Throwable error, ProviderEndpoint provider) {
        if (error instanceof HttpClosedException || error instanceof StreamResetException) {
            return new UpstreamConnectionException("connection to provider " + provider.name() + " was closed", error);
        }
        return error;
    }
}
