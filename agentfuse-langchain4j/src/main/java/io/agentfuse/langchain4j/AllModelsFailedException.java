package io.agentfuse.langchain4j;

import dev.langchain4j.exception.LangChain4jException;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.StepFailure;

import java.util.List;

/**
 * Every model of a guarded chain was skipped (open breaker, full bulkhead) or failed: a
 * {@link LangChain4jException}, so code that catches LangChain4j's failures sees this one too. The
 * message lists each model and why; {@link #steps()} has them typed, and
 * {@link #allCircuitsOpen()} tells the "nothing was even called" case apart.
 *
 * <pre>{@code
 * try {
 *     model.chat("Hi");
 * } catch (AllModelsFailedException e) {
 *     e.steps().forEach(step -> log.warn("{}", step));
 * }
 * }</pre>
 */
public final class AllModelsFailedException extends LangChain4jException {

    private final transient FallbackExhaustedException exhausted;

    /** Wraps the chain's {@code exhausted} (kept as the cause). */
    public AllModelsFailedException(FallbackExhaustedException exhausted) {
        super(exhausted.getMessage(), exhausted);
        this.exhausted = exhausted;
    }

    /** Every model, in order, with why it did not answer. */
    public List<StepFailure> steps() {
        return exhausted.steps();
    }

    /** Whether every model was skipped by an open breaker: nothing was called. */
    public boolean allCircuitsOpen() {
        return exhausted.allCircuitsOpen();
    }

    /** The soonest time, in nanoseconds, until an open breaker of the chain lets a call through; -1 if unknown. */
    public long soonestRetryAfterNanos() {
        return exhausted.soonestRetryAfterNanos();
    }
}
