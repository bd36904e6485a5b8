package io.agentfuse.agent.budget;

/**
 * A call refused before it ran because its budget could not be checked: a shared ledger that is
 * away and declared {@code closed} (or {@code share} before it ever saw its fleet), or a ledger that
 * counts as many windows as it may. Nothing was called; a retry may succeed once the ledger is back.
 *
 * <p>Immutable; no stack trace.
 */
public final class BudgetUnavailableException extends RuntimeException {

    /** A refusal for {@code reason}. */
    public BudgetUnavailableException(String budget, String reason) {
        super("budget '" + budget + "' cannot be checked now: " + reason, null, false, false);
    }
}
