package io.agentfuse.core;

/**
 * Sees each attempt of one guarded call once it is classified: the same {@link AttemptResult} the
 * breaker and the retry decision read, so that whoever counts or reports attempts (a fallback
 * chain, metrics) never classifies a failure again. Called on the thread that finished the
 * attempt, before the guard decides whether to retry; it must be quick and must not throw.
 * Attempts the caller abandoned (a cancelled call, a hedge that lost its race) are not reported.
 *
 * <pre>{@code
 * List<Outcome> seen = new ArrayList<>();
 * String answer = guard.execute(result -> seen.add(result.outcome()), () -> client.complete(prompt));
 * }</pre>
 */
@FunctionalInterface
public interface AttemptObserver {

    /** One attempt ended as {@code result} (a plain success is {@code SUCCESS} with no cause). */
    void onAttempt(AttemptResult result);

    /**
     * The attempt {@code attempt} signalled its first content ({@link AttemptContext#firstContent()})
     * and won any hedge race of its guard; it has not ended yet. Called once per attempt that
     * signals it, before its {@link #onAttempt}. A fallback chain races its steps on this. Does
     * nothing by default.
     */
    default void onFirstContent(AttemptContext attempt) {
    }
}
