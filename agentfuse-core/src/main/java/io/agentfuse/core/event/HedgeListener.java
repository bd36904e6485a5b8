package io.agentfuse.core.event;

/**
 * Receives hedging events (for metrics): a hedge started, a hedge that answered first, a hedge
 * that was due but not started. Every method has an empty default. Called synchronously on the
 * thread that decided; must be fast and must not throw.
 *
 * <p>{@code primary} is what was slow to answer and {@code hedge} what was started beside it: the
 * guard's name twice for a guard's own hedge, two step names for a fallback chain's.
 *
 * <pre>{@code
 * Guard guard = Guard.builder("model:claude-sonnet-4").hedge(policy)
 *     .hedgeListener(new HedgeListener() {
 *         public void onHedgeWon(String primary, String hedge) { hedgesWon.increment(); }
 *     })
 *     .build();
 * }</pre>
 */
public interface HedgeListener {

    /** Why a hedge that was due was not started. */
    enum Refusal {
        /** The hedge budget's share of recent requests is used up. */
        BUDGET,
        /** A guard's hedge could not fit the time left before the request's deadline. */
        NO_TIME,
        /** Its breaker or bulkhead refused it. */
        REJECTED,
        /**
         * A chain had no further step that could start: none was left, or each was passed over
         * (a request it cannot serve, no time for it before the deadline).
         */
        NO_STEP
    }

    /** {@code hedge} was started because {@code primary} had not answered in time. */
    default void onHedgeStarted(String primary, String hedge) {
    }

    /** {@code hedge} produced a result before {@code primary}, which was cancelled. */
    default void onHedgeWon(String primary, String hedge) {
    }

    /** A hedge of {@code primary} was due but not started, for {@code reason}. */
    default void onHedgeRefused(String primary, Refusal reason) {
    }
}
