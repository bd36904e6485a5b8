package io.agentfuse.gateway.dialect;

/**
 * Tokens a call used, as the provider reported them. {@code inputTokens} counts every input
 * token the provider processed, cached or not (OpenAI's {@code prompt_tokens}; Anthropic's
 * {@code input_tokens + cache_creation_input_tokens + cache_read_input_tokens}).
 *
 * <p>The counts are what a provider wrote, and a provider can write any number: every dialect reads
 * a count with {@link #count}, one past a {@code long}'s range as {@link Long#MAX_VALUE}, and sums of them
 * ({@link #sum}, {@link #total}, {@link #plus}) saturate there instead of wrapping to a negative
 * count, which no budget or breaker could take.
 *
 * <p>Immutable. {@code Usage.of(12, 30).total() == 42}.
 *
 * @param inputTokens  tokens read, {@code >= 0}
 * @param outputTokens tokens written, {@code >= 0}
 */
public record Usage(long inputTokens, long outputTokens) {

    /** No tokens. */
    public static final Usage ZERO = new Usage(0, 0);

    public Usage {
        if (inputTokens < 0) {
            throw new IllegalArgumentException("inputTokens must be >= 0, but was " + inputTokens);
        }
        if (outputTokens < 0) {
            throw new IllegalArgumentException("outputTokens must be >= 0, but was " + outputTokens);
        }
    }

    /**
     * Usage of {@code inputTokens} in and {@code outputTokens} out, as a provider's answer told them.
     *
     * @throws MalformedAnswerException when a count is negative: an answer that says so is not one to
     *         read (a failed attempt, said in the answer's terms, not the record's)
     */
    public static Usage of(long inputTokens, long outputTokens) {
        if (inputTokens < 0 || outputTokens < 0) {
            throw new MalformedAnswerException("its usage tells " + inputTokens + " input and " + outputTokens
                    + " output tokens: a count of tokens is never negative");
        }
        return new Usage(inputTokens, outputTokens);
    }

    /**
     * A count of tokens as a provider's JSON wrote it ({@code null}: none): its whole part (what
     * {@link Number#longValue()} reads of a fraction), and past a {@code long}'s range ({@code 1e30},
     * {@code 99999999999999999999}) {@link Long#MAX_VALUE}, as sums saturate; a negative count stays
     * negative, for {@link #of} to refuse.
     */
    public static long count(Number written) {
        if (written == null) {
            return 0;
        }
        if (written instanceof Long || written instanceof Integer) {
            return written.longValue();
        }
        double approximately = written.doubleValue(); // a BigInteger's or BigDecimal's longValue() would wrap
        if (approximately >= Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return approximately <= Long.MIN_VALUE ? Long.MIN_VALUE : written.longValue();
    }

    /** The tokens of this call and {@code other} together (an answer continued by another call). */
    public Usage plus(Usage other) {
        return other.total() == 0 ? this
                : new Usage(sum(inputTokens, other.inputTokens), sum(outputTokens, other.outputTokens));
    }

    /**
     * Whether this tells no tokens at all: what a provider that gave no account of a call reports
     * (every answer reads some input).
     */
    public boolean isZero() {
        return inputTokens == 0 && outputTokens == 0;
    }

    /** Input plus output tokens — what a {@code tokenOveruse} trigger compares with its limit. */
    public long total() {
        return sum(inputTokens, outputTokens);
    }

    /**
     * Two counts of tokens {@code >= 0} added (a provider's input and its cache reads, say), or
     * {@link Long#MAX_VALUE} when the sum does not fit in a {@code long}.
     */
    public static long sum(long first, long second) {
        long sum = first + second;
        boolean overflowed = ((first ^ sum) & (second ^ sum)) < 0;
        return overflowed ? (first < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
    }
}
