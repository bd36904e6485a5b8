package io.agentfuse.cli.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * What a scenario showed, and whether every expectation held.
 *
 * @param name     the scenario
 * @param outcome  one line for the summary table
 * @param failures the expectations that did not hold; empty when it passed
 */
record ScenarioResult(String name, String outcome, List<String> failures) {

    ScenarioResult {
        failures = List.copyOf(failures);
    }

    /** Whether every expectation held. */
    boolean passed() {
        return failures.isEmpty();
    }

    /** Collects the expectations of one scenario run. */
    static final class Expectations {
        private final List<String> failures = new ArrayList<>();
        private final Timeline timeline;

        Expectations(Timeline timeline) {
            this.timeline = timeline;
        }

        /** Records {@code what} as failed unless {@code holds}. */
        void expect(boolean holds, String what) {
            if (!holds) {
                failures.add(what);
                timeline.bad("demo", "unexpected: " + what);
            }
        }

        ScenarioResult result(String name, String outcome) {
            return new ScenarioResult(name, outcome, failures);
        }
    }
}
