package io.agentfuse.config;

import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.BudgetWindow;
import io.agentfuse.core.budget.ModelPrice;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One entry of the {@code budgets:} section (docs/design.md §11): how many tokens and/or USD a
 * scope may spend per window, and what happens to a request once it has spent them.
 *
 * <p>{@code scope} is required, and {@code tokens} or {@code cost} (or both). Defaults
 * ({@link ConfigDefaults}): {@code window: 1d}, {@code onExhausted: reject}. The loader has checked
 * that a fallback names a model, and that every configured model has a price when the budget
 * counts cost. Immutable and thread-safe.
 *
 * <pre>{@code
 * budgets:
 *   per-session:
 *     scope: session
 *     tokens: 500000
 *     window: 24h
 *     onExhausted: { fallback: gpt-4o-mini }
 * }</pre>
 *
 * @param name     the key under {@code budgets} (letters, digits, {@code . _ -}): in headers and admin paths
 * @param scope    what the budget is counted per
 * @param tokens   input plus output tokens per window, if limited
 * @param cost     USD per window, if limited
 * @param window   the length of each window (aligned to UTC midnight for 1d, to the hour for 1h)
 * @param fallback the model that serves a request once the budget is spent, or empty to refuse it
 */
public record BudgetConfig(String name, Scope scope, OptionalLong tokens, Optional<BigDecimal> cost,
                           Duration window, Optional<String> fallback) {

    /** What a budget is counted per. */
    public enum Scope {
        /** The caller's tenant: its client's, or the {@code x-agentfuse-tenant} header without {@code clients:}. */
        TENANT,
        /** The caller's client key (by the client's name); counts nothing without {@code clients:}. */
        KEY,
        /** The {@code x-agentfuse-session} header; a request without it is not counted. */
        SESSION,
        /** Every request. */
        GLOBAL;

        /** How the configuration writes it. */
        public String yamlName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public BudgetConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(cost, "cost");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(fallback, "fallback");
    }

    /** The limit per window, in tokens and nano-dollars. */
    public BudgetLimit limit() {
        return new BudgetLimit(tokens.orElse(BudgetLimit.NONE), cost.map(ModelPrice::nanosOf).orElse(BudgetLimit.NONE));
    }

    /** The windows it counts in. */
    public BudgetWindow windows() {
        return BudgetWindow.of(window);
    }

    /** Whether it counts cost, and so needs the price of every model. */
    public boolean countsCost() {
        return cost.isPresent();
    }
}
