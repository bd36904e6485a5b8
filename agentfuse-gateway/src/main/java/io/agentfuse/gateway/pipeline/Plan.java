package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Deadline;
import io.agentfuse.core.hedge.HedgePolicy;

import java.util.List;
import java.util.Objects;

/**
 * A request's fallback chain as {@link ModelRouter} planned it: the steps, each with its own
 * request, the route they were planned on, which keeps what every request of that route
 * shares (the guarded chain {@link ChainExecution} runs the steps in), and the two limits of the
 * requested model that bound the whole chain (docs/design.md §13).
 *
 * <p>Immutable once planned.
 *
 * @param route    the chain of models this request is served by, shared with every request of it
 * @param steps    the steps of this request, in the route's order
 * @param deadline the request's deadline ({@code models.<m>.deadline}, shortened by {@code x-agentfuse-deadline});
 *                 {@link Deadline#none()} without one
 * @param hedge    when to start the next step beside a slow one ({@code models.<m>.hedge}), or {@code null}
 * @param callersModelName whether the first step calls the model by the name the caller wrote, no entry of
 *                 {@code models:} naming it (a built-in family's model): a provider's refusal of that name is then
 *                 the caller's 4xx, passed on, where a configured name's refusal is fallen back from
 */
record Plan(Route route, List<PlannedStep> steps, Deadline deadline, HedgePolicy hedge, boolean callersModelName) {

    Plan {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(steps, "steps"); // not copied: made for this plan alone, and never changed after
        Objects.requireNonNull(deadline, "deadline");
    }

    /**
     * This plan with every step kept without its request ({@link PlannedStep#answering()}), for what
     * plans afresh from it (a stream's continuation) while a stream runs.
     */
    Plan withoutRequests() {
        return new Plan(route, steps.stream().map(PlannedStep::answering).toList(), deadline, hedge, callersModelName);
    }

    /**
     * Where {@code step} stands in this plan, by its model (a stream keeps its step without its
     * request, so it equals no planned step); -1 when it is not there.
     */
    int indexOf(PlannedStep step) {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).name().equals(step.name())) {
                return i;
            }
        }
        return -1;
    }

    /** A plan without deadline or hedge. */
    Plan(Route route, List<PlannedStep> steps) {
        this(route, steps, Deadline.none(), null, false);
    }
}
