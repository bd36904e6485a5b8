package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.vertx.core.MultiMap;

import java.io.IOException;

/**
 * The one place where transport failures of provider calls become the exceptions that
 * {@link io.agentfuse.core.OutcomeClassifier} understands: non-2xx answers become
 * {@link UpstreamStatusException} (with the answer's retry hints — {@code Retry-After},
 * {@code retry-after-ms}, the rate-limit headers, {@code x-should-retry} — and its content type),
 * except 401/403, which become {@link UpstreamAuthException}; broken
 * connections {@link UpstreamConnectionException}; an answer that is not HTTP
 * {@link io.agentfuse.gateway.dialect.MalformedAnswerException}; refused connections and other
 * {@link IOException}s stay as they are. Stateless.
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
     * The exception a call ends with when its connection to {@code provider} failed ({@code cause}) or
     * closed ({@code null}). Its message reaches callers (in error bodies and stream error events), so
     * it says what happened in plain words, never the transport's own text ({@code io_uring read(..)
     * failed with error(-104)}), which stays in the cause for the logs.
     */
    static Throwable broken(ProviderEndpoint provider, Throwable cause) {
        String connectionTo = "connection to provider " + provider.name();
        return cause == null ? new UpstreamConnectionException(connectionTo + " was closed", null)
                : cause instanceof IOException ? new UpstreamConnectionException(connectionTo + " " + TransportText.plainWords(cause), cause)
                : cause;
    }

    /** An ERROR, as a malformed body is: {@code provider} answered, wrongly (not a connection that failed). */
    static MalformedAnswerException notHttp(ProviderEndpoint provider, Throwable cause) {
        return new MalformedAnswerException("provider " + provider.name() + " sent an answer that is not valid HTTP: "
                + cause.getMessage());
    }
}
