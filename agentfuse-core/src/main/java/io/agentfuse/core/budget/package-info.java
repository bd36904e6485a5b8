/**
 * Budgets: breakers on a running sum. A budget limits the tokens and/or cost (in nano-dollars) a
 * scope — a tenant, a client key, a session, or everything — may spend per fixed window
 * ({@link io.agentfuse.core.budget.BudgetWindow}, aligned to the Unix epoch).
 *
 * <p>Calls reserve their estimate before they run and settle with their real usage after
 * ({@link io.agentfuse.core.budget.BudgetLedger}); the rules are pure functions of a window's
 * state ({@link io.agentfuse.core.budget.WindowTally}), kept by every ledger: this process's
 * memory ({@link io.agentfuse.core.budget.LocalBudgetLedger}) or one a fleet shares (Redis, in
 * {@code agentfuse-redis}, which declares what happens while Redis is away:
 * {@link io.agentfuse.core.budget.BudgetOnLoss}). Prices per million tokens turn usage into cost
 * ({@link io.agentfuse.core.budget.ModelPrice}).
 */
package io.agentfuse.core.budget;
