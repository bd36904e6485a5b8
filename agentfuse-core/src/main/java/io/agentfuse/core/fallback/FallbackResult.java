package io.agentfuse.core.fallback;

import java.util.List;

/**
 * What a {@link FallbackChain} returned: the value, which step answered, and what happened to the
 * steps before it.
 *
 * @param value     the answer
 * @param step      the name of the step that answered
 * @param stepIndex its position in the chain, 0 for the first
 * @param passed    the steps before it that were skipped or failed, in order
 * @param <T>       the type of the answer
 */
public record FallbackResult<T>(T value, String step, int stepIndex, List<StepFailure> passed) {

    /** Copies {@code passed}. */
    public FallbackResult {
        passed = List.copyOf(passed);
    }

    /** Whether an alternative answered rather than the first step. */
    public boolean fellBack() {
        return stepIndex > 0;
    }
}
