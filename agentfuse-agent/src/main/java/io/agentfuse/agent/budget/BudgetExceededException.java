package io.agentfuse.agent.budget;

import io.agentfuse.core.budget.WindowTally;

import java.time.Instant;
import java.util.Objects;

/**
 * A call refused before it ran because a budget has nothing left in its current window. Not a
 * failure of the model: nothing was called, and retrying before {@link #resetsAt()} is refused
 * the same way.
 *
 * <p>Immutable; no stack trace (it is an answer, not a bug).
 *
 * <pre>{@code
 * try { model.chat(request); }
 * catch (BudgetExceededException refused) { log.info("{} spent until {}", refused.scopeValue(), refused.resetsAt()); }
 * }</pre>
 */
public final class BudgetExceededException extends RuntimeException {

    private final String budget;
    private final String scopeValue;
    private final Instant resetsAt;
    private final transient WindowTally tally;

    /** The refusal by the window {@code tally} had nothing left in. */
    public BudgetExceededException(WindowTally tally) {
        super("budget '" + tally.key().budget() + "' of '" + tally.key().scopeValue()
                + "' is spent until " + Instant.ofEpochMilli(tally.endMillis()), null, false, false);
        this.tally = Objects.requireNonNull(tally, "tally");
        this.budget = tally.key().budget();
        this.scopeValue = tally.key().scopeValue();
        this.resetsAt = Instant.ofEpochMilli(tally.endMillis());
    }

    /** The budget's name. */
    public String budget() {
        return budget;
    }

    /** What the budget is counted per that had nothing left (a tenant, key, session, or {@code global}). */
    public String scopeValue() {
        return scopeValue;
    }

    /** When the window ends and the budget is whole again. */
    public Instant resetsAt() {
        return resetsAt;
    }

    /** The window as it was when it refused. */
    public WindowTally tally() {
        return tally;
    }
}
