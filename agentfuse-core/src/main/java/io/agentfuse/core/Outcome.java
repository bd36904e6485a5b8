package io.agentfuse.core;

/**
 * How a call ended: the one vocabulary that the breaker, retry, fallback chain and gateway share.
 *
 * <p>{@link OutcomeClassifier} maps exceptions, HTTP statuses and results to these kinds. Each
 * kind carries its defaults: whether the breaker counts it as a failure, whether a retry may try
 * again, and whether a fallback chain moves on to its next step. Retry and fallback policies may
 * override the last two; the breaker's view is fixed.
 *
 * <table>
 *   <caption>Defaults per kind</caption>
 *   <tr><th>kind</th><th>breaker</th><th>retry</th><th>fallback</th></tr>
 *   <tr><td>SUCCESS</td><td>success</td><td>no</td><td>no</td></tr>
 *   <tr><td>TIMEOUT, SERVER_ERROR, RATE_LIMITED, OVERLOADED, CONNECTION_ERROR</td><td>failure</td><td>yes</td><td>yes</td></tr>
 *   <tr><td>CLIENT_ERROR</td><td>ignored</td><td>never</td><td>no</td></tr>
 *   <tr><td>TOKEN_OVERUSE</td><td>failure</td><td>no</td><td>no</td></tr>
 *   <tr><td>ERROR</td><td>failure</td><td>no (configurable)</td><td>yes</td></tr>
 * </table>
 */
public enum Outcome {
    /** A 2xx answer or a normal return. */
    SUCCESS(false, false, false),
    /** The call exceeded its timeout, or ran slower than a slow-call threshold; also HTTP 408. */
    TIMEOUT(true, true, true),
    /** A 5xx answer, or a tool that reports itself unavailable. */
    SERVER_ERROR(true, true, true),
    /** HTTP 429: retried with backoff, honouring {@code Retry-After}. */
    RATE_LIMITED(true, true, true),
    /** HTTP 529 (Anthropic), or a 503 whose body says the service is overloaded. */
    OVERLOADED(true, true, true),
    /** The connection was refused or reset, or the host did not resolve. */
    CONNECTION_ERROR(true, true, true),
    /**
     * Any other 4xx: the caller's fault, so neither retried nor counted against the callee. Also a
     * {@link VirtualMachineError} of the caller's own JVM (out of memory, a stack overflow).
     */
    CLIENT_ERROR(false, false, false),
    /** The call succeeded but used more tokens than allowed. */
    TOKEN_OVERUSE(true, false, false),
    /** Any other exception. */
    ERROR(true, false, true);

    private final boolean failure;
    private final boolean retryable;
    private final boolean fallbackable;

    Outcome(boolean failure, boolean retryable, boolean fallbackable) {
        this.failure = failure;
        this.retryable = retryable;
        this.fallbackable = fallbackable;
    }

    /** Whether a circuit breaker counts this outcome as a failure of the callee. */
    public boolean isFailure() {
        return failure;
    }

    /** Whether the breaker ignores this outcome entirely (neither success nor failure). */
    public boolean isIgnoredByBreaker() {
        return this == CLIENT_ERROR;
    }

    /** Whether a retry policy retries this outcome by default. */
    public boolean isRetryableByDefault() {
        return retryable;
    }

    /** Whether a fallback chain moves on to its next step after this outcome by default. */
    public boolean isFallbackByDefault() {
        return fallbackable;
    }

    /** Whether this outcome means the callee is shedding load ({@code 429}, {@code 529}). */
    public boolean isRateLimit() {
        return this == RATE_LIMITED || this == OVERLOADED;
    }
}
