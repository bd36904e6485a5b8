package io.agentfuse.config;

import io.agentfuse.core.budget.BudgetOnLoss;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code state:} section: where breaker state lives.
 *
 * <p>Defaults ({@link ConfigDefaults#STATE}): {@code store: memory}; the Redis settings are
 * only used with {@code store: redis}, {@code budgetOnLoss: share}, {@code budgetWait: 250ms}. Immutable and thread-safe.
 *
 * <pre>{@code
 * state:
 *   store: redis
 *   redis: { uri: "redis://127.0.0.1:6379", keyPrefix: "agentfuse:", budgetOnLoss: share }
 * }</pre>
 *
 * @param store which store keeps breaker state
 * @param redis how to reach Redis (read even when unused, so that a typo is still an error)
 */
public record StateConfig(Store store, Redis redis) {

    public StateConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(redis, "redis");
    }

    /** Where breaker state (and budgets' spend) is kept; written in YAML in lower case. */
    public enum Store {
        /** Each instance keeps its own breakers in memory. */
        MEMORY,
        /** Instances share trips and probes through Redis. */
        REDIS
    }

    /**
     * How to reach Redis.
     *
     * @param uri          a {@code redis://} or {@code rediss://} URI
     * @param keyPrefix    prefix of every key agentfuse writes
     * @param budgetOnLoss what budgets do while Redis is away: spend a share of what was left
     *                     ({@code share}), refuse ({@code closed}) or count locally ({@code open})
     * @param budgetWait   how long a budget's reservation waits for Redis before {@code budgetOnLoss}
     *                     decides it (and every call after it, until Redis answers again)
     */
    public record Redis(String uri, String keyPrefix, BudgetOnLoss budgetOnLoss, Duration budgetWait) {

        public Redis {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(keyPrefix, "keyPrefix");
            Objects.requireNonNull(budgetOnLoss, "budgetOnLoss");
            Objects.requireNonNull(budgetWait, "budgetWait");
        }

        /** Redis at {@code uri}, with the budgets' defaults: a share of what was left while it is away, a 250 ms wait. */
        public Redis(String uri, String keyPrefix) {
            this(uri, keyPrefix, BudgetOnLoss.SHARE, ConfigDefaults.BUDGET_WAIT);
        }
    }
}
