package io.agentfuse.core.budget;

/**
 * An amount counted against a budget: tokens, and cost in nano-dollars (10<sup>-9</sup> USD, so
 * that prices of a few cents per million tokens still count exactly in whole numbers).
 *
 * <p>Immutable. {@code new BudgetAmount(1200, 3_600_000).plus(BudgetAmount.ZERO).tokens() == 1200}.
 *
 * @param tokens    input plus output tokens, {@code >= 0}
 * @param costNanos cost in nano-dollars, {@code >= 0}
 */
public record BudgetAmount(long tokens, long costNanos) {

    /** Nothing. */
    public static final BudgetAmount ZERO = new BudgetAmount(0, 0);

    public BudgetAmount {
        if (tokens < 0) {
            throw new IllegalArgumentException("tokens must be >= 0, but was " + tokens);
        }
        if (costNanos < 0) {
            throw new IllegalArgumentException("costNanos must be >= 0, but was " + costNanos);
        }
    }

    /** {@code tokens} tokens at no cost. */
    public static BudgetAmount ofTokens(long tokens) {
        return new BudgetAmount(tokens, 0);
    }

    /** This amount and {@code other} together (saturating at {@link Long#MAX_VALUE}). */
    public BudgetAmount plus(BudgetAmount other) {
        return new BudgetAmount(Counts.sum(tokens, other.tokens), Counts.sum(costNanos, other.costNanos));
    }

    /** This amount less {@code other}, never below zero in either part. */
    public BudgetAmount minus(BudgetAmount other) {
        return new BudgetAmount(Math.max(0, tokens - other.tokens), Math.max(0, costNanos - other.costNanos));
    }

    /** Whether both parts are zero. */
    public boolean isZero() {
        return tokens == 0 && costNanos == 0;
    }
}
