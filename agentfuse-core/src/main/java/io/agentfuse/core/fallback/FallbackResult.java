package io.agentfuse.core.fallback;

import java.util.List;

/**
 * What a {@link FallbackChain} returned: the value, which step answered, whether it was started as a
 * hedge, and what happened to the steps before it.
 *
 * @param value     the answer
 * @param step      the name of the step that answered
 * @param stepIndex its position in the chain, 0 for the first
 * @param passed    the steps that were skipped or failed, in chain order (a step that lost a hedge
 *                  race neither failed nor was skipped, and is not listed)
 * @param hedged    whether the step that answered was started as a hedge, beside a slower one
 * @param <T>       the type of the answer
 */
public record FallbackResult<T>(T value, String step, int stepIndex, List<StepFailure> passed, boolean hedged) {

    /** Copies {@code passed}. */
    public FallbackResult {
        passed = List.copyOf(passed);
    }

    /** A result of a step that was not a hedge. */
    public FallbackResult(T value, String step, int stepIndex, List<StepFailure> passed) {
        this(value, step, stepIndex, passed, false);
    }

    /** Whether an alternative answered rather than the first step. */
    public boolean fellBack() {
        return stepIndex > 0;
    }
}
