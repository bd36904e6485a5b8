package io.agentfuse.core;

import java.util.Optional;

/**
 * A call that ended with a non-2xx HTTP status. Throw it from a guarded call (or wrap your
 * client's exception in it) so that {@link OutcomeClassifier} can classify by status and the
 * retry policy can honour the server's {@code Retry-After}.
 *
 * <p>Immutable and thread-safe. The stack trace is not filled in: these exceptions are expected,
 * frequent, and their origin is the remote server, not this thread.
 *
 * <pre>{@code
 * if (response.statusCode() >= 400) {
 *     throw new HttpStatusException(response.statusCode(), response.body(),
 *             response.headers().firstValue("retry-after").orElse(null), null);
 * }
 * }</pre>
 */
public class HttpStatusException extends RuntimeException {

    private final int status;
    private final String body;
    private final String retryAfter;
    private final String retryAfterMs;
    private final Boolean shouldRetry;

    /**
     * @param status       the HTTP status code
     * @param body         the response body, or {@code null}
     * @param retryAfter   the {@code Retry-After} header (seconds or an HTTP date), or {@code null}
     * @param retryAfterMs the {@code retry-after-ms} header, or {@code null}
     */
    public HttpStatusException(int status, String body, String retryAfter, String retryAfterMs) {
        this(status, body, retryAfter, retryAfterMs, null);
    }

    /**
     * @param status       the HTTP status code
     * @param body         the response body, or {@code null}
     * @param retryAfter   the {@code Retry-After} header (seconds or an HTTP date), or {@code null}
     * @param retryAfterMs the {@code retry-after-ms} header, or {@code null}
     * @param shouldRetry  the {@code x-should-retry} header as a boolean, or {@code null} if absent
     */
    public HttpStatusException(int status, String body, String retryAfter, String retryAfterMs, Boolean shouldRetry) {
        super("HTTP " + status + (body == null || body.isEmpty() ? "" : ": " + abbreviate(body)), null, false, false);
        this.status = status;
        this.body = body;
        this.retryAfter = retryAfter;
        this.retryAfterMs = retryAfterMs;
        this.shouldRetry = shouldRetry;
    }

    /** An exception for {@code status} without body or retry hints. */
    public HttpStatusException(int status) {
        this(status, null, null, null);
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }

    /** The response body, if any. */
    public Optional<String> body() {
        return Optional.ofNullable(body);
    }

    /** The raw {@code Retry-After} header, if any. */
    public Optional<String> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** The raw {@code retry-after-ms} header, if any. */
    public Optional<String> retryAfterMs() {
        return Optional.ofNullable(retryAfterMs);
    }

    /** The server's {@code x-should-retry} verdict, if it gave one. */
    public Optional<Boolean> shouldRetry() {
        return Optional.ofNullable(shouldRetry);
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
