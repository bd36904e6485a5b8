package io.agentfuse.core.event;

/**
 * Receives a guard's retry events. Every method has an empty default. Called synchronously on
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

    /**
     * A retry that was due was refused by the shared retry budget (too many retries lately across
     * the guards that share it); the guard gives up after {@code attempts} attempts with {@code last}.
     * {@link #onRetriesExhausted} follows.
     */
    default void onRetryRefusedByBudget(String guard, int attempts, Throwable last) {
    }

    /**
     * A retry that was due does not fit the time left before the request's deadline
     * ({@code remainingNanos}: its wait plus the step's recent median latency would end past it);
     * the guard gives up after {@code attempts} attempts with {@code last}. {@link #onRetriesExhausted} follows.
     */
    default void onRetryRefusedByDeadline(String guard, int attempts, Throwable last, long remainingNanos) {
    }
}
