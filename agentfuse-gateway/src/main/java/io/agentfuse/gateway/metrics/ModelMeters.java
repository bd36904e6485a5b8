package io.agentfuse.gateway.metrics;

import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.core.Outcome;
import io.micrometer.core.instrument.Timer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters every request of one model touches, found by the model's name alone: building a
 * key of every tag for each meter of each request cost more than counting. Counts are made on
 * first use through {@link RegisteredMeters#loopCount}, so each is the one that method would give;
 * two threads that make the same one at once are both handed the one it keeps.
 *
 * <p>Thread-safe.
 */
final class ModelMeters {

    private static final int STATUSES = 600;

    private final String model;
    private final RegisteredMeters meters;
    private final Map<String, Answers> answers = new ConcurrentHashMap<>();
    private final LoopCount[] attempts = new LoopCount[Outcome.values().length];
    private final LoopCount[] levels = new LoopCount[ContextLevel.values().length];

    ModelMeters(String model, RegisteredMeters meters) {
        this.model = model;
        this.meters = meters;
    }

    /** The answered requests of this model from callers of {@code dialect}. */
    Answers answers(String dialect) {
        Answers found = answers.get(dialect);
        return found != null ? found : answers.computeIfAbsent(dialect, Answers::new);
    }

    /** {@code agentfuse_upstream_attempts_total} of this model ending as {@code outcome}. */
    LoopCount attempt(Outcome outcome) {
        LoopCount counter = attempts[outcome.ordinal()];
        if (counter == null) {
            counter = meters.loopCount("agentfuse.upstream.attempts", "Calls to model providers",
                    "model", model, "outcome", outcome.name());
            attempts[outcome.ordinal()] = counter;
        }
        return counter;
    }

    /** {@code agentfuse_context_level_total} of this model at {@code level}. */
    LoopCount level(ContextLevel level) {
        LoopCount counter = levels[level.ordinal()];
        if (counter == null) {
            counter = meters.loopCount("agentfuse.context.level", "Requests by the context-ladder level they arrived at",
                    "model", model, "level", level.name());
            levels[level.ordinal()] = counter;
        }
        return counter;
    }

    /** The answered requests of this model from callers of one dialect: counted by status, and timed. */
    final class Answers {
        private final String dialect;
        final Timer duration;
        private final LoopCount[] byStatus = new LoopCount[STATUSES];

        Answers(String dialect) {
            this.dialect = dialect;
            this.duration = meters.timer("agentfuse.request.duration", "Time to answer a model request",
                    "model", model, "dialect", dialect);
        }

        LoopCount count(int status) {
            LoopCount counter = status >= 0 && status < STATUSES ? byStatus[status] : null;
            if (counter == null) {
                counter = meters.loopCount("agentfuse.requests", "Model requests answered by the gateway",
                        "model", model, "dialect", dialect, "status", Integer.toString(status));
                if (status >= 0 && status < STATUSES) {
                    byStatus[status] = counter;
                }
            }
            return counter;
        }
    }
}
