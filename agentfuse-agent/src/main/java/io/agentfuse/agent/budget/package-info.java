/**
 * Token and cost budgets for agents: {@link io.agentfuse.agent.budget.TokenBudget} reserves a
 * call's estimate ({@link io.agentfuse.agent.budget.TokenEstimate}) before it runs, settles it with
 * the call's usage after, and refuses a call whose window has nothing left
 * ({@link io.agentfuse.agent.budget.BudgetExceededException}). The rules and ledgers are core's
 * ({@code io.agentfuse.core.budget}); the gateway and the LangChain4j and Spring AI decorators use
 * the same.
 */
package io.agentfuse.agent.budget;
