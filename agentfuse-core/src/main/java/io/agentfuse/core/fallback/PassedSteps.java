package io.agentfuse.core.fallback;

import java.util.ArrayList;
import java.util.List;

/**
 * The steps a chain run passed over, kept in chain order even when two steps in flight (a hedge
 * beside a slower step) fail out of it. Most runs pass over none, so nothing is allocated until
 * the first. Thread-safe.
 */
final class PassedSteps {

    private List<Passed> passed = List.of();

    private record Passed(int index, StepFailure failure) {
    }

    /** Adds the failure of step {@code index} in its place. */
    synchronized void add(int index, StepFailure failure) {
        List<Passed> more = passed.isEmpty() ? new ArrayList<>(2) : passed;
        int at = more.size();
        while (at > 0 && more.get(at - 1).index() > index) {
            at--;
        }
        more.add(at, new Passed(index, failure));
        passed = more;
    }

    /** The failures so far, in chain order. */
    synchronized List<StepFailure> list() {
        if (passed.isEmpty()) {
            return List.of();
        }
        List<StepFailure> failures = new ArrayList<>(passed.size());
        for (Passed step : passed) {
            failures.add(step.failure());
        }
        return failures;
    }
}
