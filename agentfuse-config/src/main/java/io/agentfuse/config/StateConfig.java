package io.agentfuse.config;

import io.agentfuse.core.budget.BudgetOnLoss;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code state:} section: where breaker state lives.
 *
 * <p>Defaults ({@link ConfigDefaults#STATE}): {@code store: memory}; the Redis settings are
 * only used with {@code store: redis}, {@code budgetOnLoss: share}, {@code budgetWait: 250ms},
 * {@code probeResultWait: 250ms}. Immutable and thread-safe.
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
     * @param probeResultWait how long a call that asks for a breaker's probe lease while another
     *                     instance holds it waits for that probe's result before it is refused:
     *                     the prober's close reaches Redis a round trip after its caller has the
     *                     answer, and a call asking in between would be refused though the fleet is
     *                     closed; {@code 0} refuses at once, at most the lease
     *                     ({@link ConfigDefaults#PROBE_LEASE}), past which no result is awaited
     */
    public record Redis(String uri, String keyPrefix, BudgetOnLoss budgetOnLoss, Duration budgetWait,
                        Duration probeResultWait) {

        public Redis {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(keyPrefix, "keyPrefix");
            Objects.requireNonNull(budgetOnLoss, "budgetOnLoss");
            Objects.requireNonNull(budgetWait, "budgetWait");
            Objects.requireNonNull(probeResultWait, "probeResultWait");
        }

        /**
         * Redis at {@code uri}, with the defaults of the rest: budgets spending a share of what was
         * left while it is away, 250 ms waits for it and for another instance's probe result.
         */
        public Redis(String uri, String keyPrefix) {
            this(uri, keyPrefix, BudgetOnLoss.SHARE, ConfigDefaults.BUDGET_WAIT, ConfigDefaults.PROBE_RESULT_WAIT);
        }
    }
}
