package io.agentfuse.gateway.http;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the gateway ends with one of its own {@link GatewayError}s: thrown (or failed with)
 * anywhere in the pipeline and answered by {@link GatewayErrors} in the caller's dialect.
 *
 * <p>Immutable; no stack trace (it is an answer, not a bug).
 *
 * <pre>{@code
 * throw new GatewayException(GatewayError.MODEL_NOT_FOUND, "model 'gpt-5' is not configured");
 * throw GatewayException.circuitOpen("every model of the chain is open", Duration.ofSeconds(42));
 * }</pre>
 */
public final class GatewayException extends RuntimeException {

    private final GatewayError error;
    private final Duration retryAfter;

    /** An error with a human message. */
    public GatewayException(GatewayError error, String message) {
        this(error, message, null);
    }

    /**
     * An error with a human message and a time after which a retry may succeed.
     *
     * @param retryAfter when a retry may succeed, or {@code null}: sent as {@code Retry-After} (whole
     *                   seconds, rounded up; a spent budget's only within a minute) and, to Google's
     *                   callers, as the error's {@code RetryInfo} ({@link GatewayErrors#respond})
     */
    public GatewayException(GatewayError error, String message, Duration retryAfter) {
        super(Objects.requireNonNull(message, "message"), null, false, false);
        this.error = Objects.requireNonNull(error, "error");
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must be >= 0, but was " + retryAfter);
        }
        this.retryAfter = retryAfter;
    }

    /** 503 {@code circuit_open}, retry after the soonest reopening. */
    public static GatewayException circuitOpen(String message, Duration retryAfter) {
        return new GatewayException(GatewayError.CIRCUIT_OPEN, message, Objects.requireNonNull(retryAfter, "retryAfter"));
    }

    /**
     * 429 {@code overloaded}, retry after a second: the gateway's heap ran out while it served the
     * request ({@code full}). Short-lived, as the many requests that filled the heap are, and the
     * gateway's own fault: the model is not blamed for it.
     */
    public static GatewayException outOfMemory(OutOfMemoryError full) {
        return new GatewayException(GatewayError.OVERLOADED, "the gateway had no memory left to serve the request ("
                + Objects.requireNonNullElse(full.getMessage(), "out of memory")
                + "); retry in a moment, the model is not blamed for it", Duration.ofSeconds(1));
    }

    /** The kind of error. */
    public GatewayError error() {
        return error;
    }

    /** When a retry may succeed, if known. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
