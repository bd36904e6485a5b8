package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.vertx.core.MultiMap;
import io.vertx.core.VertxException;
import io.vertx.core.http.StreamResetException;

import java.io.IOException;
import java.net.ConnectException;

/**
 * The one place where transport failures of provider calls become the exceptions that
 * {@link io.agentfuse.core.OutcomeClassifier} understands: non-2xx answers become
 * {@link UpstreamStatusException} (with the answer's retry hints — {@code Retry-After},
 * {@code retry-after-ms}, the rate-limit headers, {@code x-should-retry} — and its content type),
 * except 401/403, which become {@link UpstreamAuthException}; an answer that is not valid HTTP
 * ({@link NotHttpException}) a {@link MalformedAnswerException} (the provider answered, wrongly);
 * connections that were closed, reset or failed (a TLS handshake, an HTTP/2 stream reset)
 * {@link UpstreamConnectionException}; refused connections and connect timeouts stay the
 * {@link ConnectException}s they are. Stateless.
 */
final class UpstreamFailures {

    private UpstreamFailures() {
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

    /**
     * The exception a call to {@code provider} ends with when its connection or the client failed with
     * {@code cause}. Its message reaches callers (in error bodies and stream error events), so it says
     * what happened in plain words, never the transport's own text ({@code io_uring read(..) failed
     * with error(-104)}), which stays in the cause for the logs.
     */
    static Throwable of(ProviderEndpoint provider, Throwable cause) {
        for (Throwable at = cause; at != null; at = at.getCause()) {
            if (at instanceof NotHttpException notHttp) {
                return new MalformedAnswerException("provider " + provider.name() + " sent an answer that is not valid HTTP: "
                        + notHttp.getMessage());
            }
        }
        if (cause instanceof ConnectException) {
            return cause;
        }
        String connectionTo = "connection to provider " + provider.name();
        if (cause instanceof IOException || cause instanceof StreamResetException) {
            return new UpstreamConnectionException(connectionTo + " " + TransportText.plainWords(cause), cause);
        }
        if (cause.getClass() == VertxException.class || cause instanceof io.vertx.core.http.HttpClosedException) {
            return new UpstreamConnectionException(connectionTo + " was closed", cause);
        }
        return cause;
    }
}
