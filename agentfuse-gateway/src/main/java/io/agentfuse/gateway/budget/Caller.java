package io.agentfuse.gateway.budget;

import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.config.BudgetConfig;

/**
 * Who a request comes from, as far as budgets (and what else belongs to one caller) care: its
 * client (by name) when {@code clients:} is configured, its tenant, and its agent session. The one
 * identity of a caller in the gateway; made by {@link ClientKeys#identify}.
 *
 * <p>Immutable.
 *
 * @param client  the name of the client whose key the request carried, or {@code null} without {@code clients:}
 * @param tenant  the client's tenant, or without {@code clients:} the {@code x-agentfuse-tenant} header; {@code null} for none
 * @param session the {@code x-agentfuse-session} header, or {@code null}
 */
public record Caller(String client, String tenant, String session) {

    /** A caller the gateway knows nothing of. */
    public static final Caller ANONYMOUS = new Caller(null, null, null);

    /**
     * Whether this caller chose its value of {@code scope} itself, so that it could as well name a
     * fresh one: its session, and its tenant when no client key vouches for it.
     */
    public boolean named(BudgetConfig.Scope scope) {
        return scope == BudgetConfig.Scope.SESSION || scope == BudgetConfig.Scope.TENANT && client == null;
    }

    /** What {@code scope} counts this caller's requests per, or {@code null} when it does not count them. */
    public String scopeValue(BudgetConfig.Scope scope) {
        return switch (scope) {
            case TENANT -> tenant;
            case KEY -> client;
            case SESSION -> session;
            case GLOBAL -> TokenBudget.GLOBAL;
        };
    }
}
