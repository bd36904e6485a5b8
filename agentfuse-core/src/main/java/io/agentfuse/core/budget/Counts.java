package io.agentfuse.core.budget;

/**
 * Sums of the counts that usage and budgets are made of (tokens, nano-dollars): they saturate at
 * {@link Long#MAX_VALUE} instead of wrapping round to a negative count, which a budget would read as
 * spending given back. A count past a {@code long}'s range is a made-up one (a provider that errs, an
 * upstream that lies), and the most a {@code long} holds is the truest reading of it.
 *
 * <pre>{@code
 * long input = Counts.sum(reported.inputTokens(), reported.cacheReads());
 * }</pre>
 */
public final class Counts {

    private Counts() {
    }

    /**
     * {@code first + second}, or the end of a {@code long}'s range the sum passed: {@link Long#MAX_VALUE}
     * for counts {@code >= 0}.
     */
    public static long sum(long first, long second) {
        long sum = first + second;
        boolean overflowed = ((first ^ sum) & (second ^ sum)) < 0;
        return overflowed ? (first < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
    }
}
