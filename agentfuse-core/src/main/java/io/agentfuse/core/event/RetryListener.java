package io.agentfuse.core.event;

/**
 * Receives a guard's retry events. Both methods have empty defaults. Called synchronously on
 * the thread that made the decision; must be fast and must not throw.
 *
 * <pre>{@code
 * Guard guard = Guard.builder("model:gpt-4o-mini")
 *     .retry(RetryPolicy.defaults())
 *     .retryListener(new RetryListener() {
 *         public void onRetryScheduled(String guard, int attempt, long delayNanos, Throwable cause) {
 *             log.info("{}: attempt {} in {} ms after {}", guard, attempt, delayNanos / 1_000_000, cause.toString());
 *         }
 *     })
 *     .build();
 * }</pre>
 */
public interface RetryListener {

    /**
     * Attempt number {@code nextAttempt} will start after {@code delayNanos}, because the attempt
     * before it failed with {@code cause}.
     */
    default void onRetryScheduled(String guard, int nextAttempt, long delayNanos, Throwable cause) {
    }

    /** The guard gives up after {@code attempts} attempts; {@code last} is what it returns. */
    default void onRetriesExhausted(String guard, int attempts, Throwable last) {
    }
}
