/**
 * Budgets and client keys at the gateway (docs/design.md §11): who a request comes from
 * ({@link io.agentfuse.gateway.budget.ClientKeys}, {@link io.agentfuse.gateway.budget.Caller}) and
 * how a budget's state is told to the caller ({@link io.agentfuse.gateway.budget.BudgetHeader}).
 * The pipeline's budget stage ({@code pipeline.BudgetStage}) reserves and settles with core's
 * ledgers; {@code admin.BudgetAdminHandler} shows and resets their windows.
 */
package io.agentfuse.gateway.budget;
