package io.agentfuse.core.fallback;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.timeout.DeadlineExceededException;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Every step of a {@link FallbackChain} was skipped or failed (or the chain reached its
 * {@code null}, "give up", step). The message lists each step and why.
 *
 * <p>Helpers tell the cases that callers (such as the gateway) answer differently: every step
 * skipped by an open breaker, every step that was called timed out, or the deadline ended it.
 */
public final class FallbackExhaustedException extends RuntimeException {

    private final transient List<StepFailure> steps;

    /** @param steps every step, in order, with why it did not answer */
    public FallbackExhaustedException(List<StepFailure> steps) {
        super(describe(steps), steps.isEmpty() ? null : steps.get(steps.size() - 1).cause(), false, false);
        this.steps = List.copyOf(steps);
    }

    private static String describe(List<StepFailure> steps) {
        if (steps.isEmpty()) {
            return "the fallback chain has no steps";
        }
        return "all fallbacks failed: " + steps.stream().map(StepFailure::toString).collect(Collectors.joining("; "));
    }

    /** Every step, in order. */
    public List<StepFailure> steps() {
        return steps;
    }

    /** Whether every step was skipped by an open breaker: nothing was called at all. */
    public boolean allCircuitsOpen() {
        return !steps.isEmpty() && steps.stream().allMatch(StepFailure::skippedByOpenCircuit);
    }

    /** Whether at least one step was called and every step that was called timed out. */
    public boolean allCalledTimedOut() {
        List<StepFailure> called = steps.stream().filter(step -> !step.skipped()).toList();
        return !called.isEmpty() && called.stream().allMatch(step -> step.outcome() == Outcome.TIMEOUT);
    }

    /**
     * Whether the request's deadline ended the chain: a step was not started for lack of time, or
     * the last step called was cut short by the deadline (docs/design.md §13: a 504 {@code timeout}
     * when nothing answered).
     */
    public boolean deadlineReached() {
        if (steps.stream().anyMatch(step -> step.kind() == StepFailure.Kind.DEADLINE)) {
            return true;
        }
        StepFailure lastCalled = steps.stream().filter(step -> !step.skipped()).reduce((a, b) -> b).orElse(null);
        return lastCalled != null && lastCalled.cause() instanceof DeadlineExceededException;
    }

    /** The soonest time, in nanoseconds, until an open breaker of the chain lets a call through; -1 if unknown. */
    public long soonestRetryAfterNanos() {
        return steps.stream().mapToLong(StepFailure::retryAfterNanos).filter(nanos -> nanos >= 0).min().orElse(-1);
    }
}
