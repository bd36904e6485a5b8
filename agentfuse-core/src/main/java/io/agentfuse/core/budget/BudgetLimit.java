package io.agentfuse.core.budget;

/**
 * What a budget allows per window: tokens, cost in nano-dollars, or both; a part that is
 * {@link #NONE} is not limited. At least one part is limited.
 *
 * <p>The admission rule of every ledger ({@link WindowTally#admits()}) reads it: a window admits
 * a new reservation while something is left of every limited part.
 *
 * <p>Immutable. {@code BudgetLimit.ofTokens(500_000).limitsCost() == false}.
 *
 * @param tokens    tokens per window, {@code > 0}, or {@link #NONE}
 * @param costNanos nano-dollars per window, {@code > 0}, or {@link #NONE}
 */
public record BudgetLimit(long tokens, long costNanos) {

    /** A part that is not limited. */
    public static final long NONE = -1;

    public BudgetLimit {
        if (tokens != NONE && tokens <= 0) {
            throw new IllegalArgumentException("tokens must be > 0 (or NONE), but was " + tokens);
        }
        if (costNanos != NONE && costNanos <= 0) {
            throw new IllegalArgumentException("costNanos must be > 0 (or NONE), but was " + costNanos);
        }
        if (tokens == NONE && costNanos == NONE) {
            throw new IllegalArgumentException("a budget limits tokens, cost or both, but this one limits neither");
        }
    }

    /** A limit of {@code tokens} tokens per window. */
    public static BudgetLimit ofTokens(long tokens) {
        return new BudgetLimit(tokens, NONE);
    }

    /** Whether tokens are limited. */
    public boolean limitsTokens() {
        return tokens != NONE;
    }

    /** Whether cost is limited. */
    public boolean limitsCost() {
        return costNanos != NONE;
    }

    /**
     * This limit divided among {@code parts} (at least 1 left of each limited part): an instance's
     * share of what a fleet has left. {@code remaining} is what is left of this limit.
     */
    public BudgetLimit share(BudgetAmount remaining, int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be >= 1, but was " + parts);
        }
        return new BudgetLimit(limitsTokens() ? Math.max(1, remaining.tokens() / parts) : NONE,
                limitsCost() ? Math.max(1, remaining.costNanos() / parts) : NONE);
    }
}
