package io.agentfuse.core.budget;

import java.util.Objects;

/**
 * One window of one budget for one scope value: {@code ("per-tenant", "team-a", start of today)}.
 *
 * <p>Immutable; a map key.
 *
 * @param budget      the budget's name
 * @param scopeValue  what the budget is counted per: a tenant, key, session, or {@code global}
 * @param startMillis the window's start, epoch milliseconds ({@link BudgetWindow#startOf})
 */
public record WindowKey(String budget, String scopeValue, long startMillis) {

    public WindowKey {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(scopeValue, "scopeValue");
    }
}
