package io.agentfuse.gateway.state;

import io.agentfuse.config.StateConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.redis.RedisBudgetLedger;
import io.agentfuse.redis.RedisStateStore;

import java.util.Optional;

/**
 * The one place the gateway turns {@code state:} into stores: for {@code store: memory} no breaker
 * store (breakers are this process's alone) and budgets in memory; for {@code store: redis} a
 * {@link RedisStateStore} and a {@link RedisBudgetLedger} on {@code state.redis.uri} with
 * {@code state.redis.keyPrefix} (breakers waiting {@code state.redis.probeResultWait} for another
 * instance's probe result, budgets following {@code state.redis.budgetOnLoss} while Redis is away). The stores connect in the background and never delay the start: while Redis is away,
 * breakers work locally and budgets as declared.
 */
public final class StateStores {

    private StateStores() {
    }

    /** The store {@code state} asks for, if any; the caller closes it. */
    public static Optional<BreakerStateStore> open(StateConfig state) {
        return switch (state.store()) {
            case MEMORY -> Optional.empty();
            case REDIS -> Optional.of(RedisStateStore.builder(state.redis().uri()).keyPrefix(state.redis().keyPrefix())
                    .probeResultWait(state.redis().probeResultWait()).build());
        };
    }

    /** Where budgets are counted under {@code state}; the caller closes it. */
    public static BudgetLedger budgetLedger(StateConfig state, Clock clock) {
        return switch (state.store()) {
            case MEMORY -> new LocalBudgetLedger(clock);
            case REDIS -> RedisBudgetLedger.builder(state.redis().uri()).keyPrefix(state.redis().keyPrefix())
                    .onLoss(state.redis().budgetOnLoss()).wait(state.redis().budgetWait()).clock(clock).build();
        };
    }
}
