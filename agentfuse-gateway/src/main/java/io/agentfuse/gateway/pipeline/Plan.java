package io.agentfuse.gateway.pipeline;

import java.util.List;
import java.util.Objects;

/**
 * A request's fallback chain as {@link ModelRouter} planned it: the steps, each with its own
 * request, and the route they were planned on, which keeps what every request of that route
 * shares (the guarded chain {@link ChainExecution} runs the steps in).
 *
 * <p>Immutable once planned.
 *
 * @param route the chain of models this request is served by, shared with every request of it
 * @param steps the steps of this request, in the route's order
 */
record Plan(Route route, List<PlannedStep> steps) {

    Plan {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(steps, "steps"); // not copied: made for this plan alone, and never changed after

    }
}
