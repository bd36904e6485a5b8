package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptResult;

/**
 * Sees every attempt of every step of a {@link FallbackChain}, as the step's guard classified it,
 * together with the input of the execution it belongs to — so that what is per request (a trace, a
 * span per attempt) can be told apart when one chain serves many requests at once. Called on the
 * thread that finished the attempt, so it must be quick.
 *
 * <pre>{@code
 * FallbackChain.<Request, Answer>builder()
 *     .observeAttempts((request, step, attempt) -> request.trace().attemptEnded(step, attempt.outcome()))
 * }</pre>
 *
 * @param <I> the chain's input
 */
@FunctionalInterface
public interface AttemptListener<I> {

    /** Attempt {@code attempt} of step {@code step} ended, for the execution on {@code input}. */
    void onAttempt(I input, String step, AttemptResult attempt);
}
