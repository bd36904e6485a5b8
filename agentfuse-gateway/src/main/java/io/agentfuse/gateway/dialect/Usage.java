package io.agentfuse.gateway.dialect;

import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.Counts;

import java.util.Objects;

/**
 * Tokens a call used, as the provider reported them. {@code inputTokens} counts every input
 * token the provider processed, cached or not (OpenAI's {@code prompt_tokens}; Anthropic's
 * {@code input_tokens + cache_creation_input_tokens + cache_read_input_tokens}); {@code cached}
 * tells which of them the provider read from its prompt cache or wrote to it (OpenAI's
 * {@code prompt_tokens_details.cached_tokens}; Anthropic's {@code cache_read_input_tokens} and
 * {@code cache_creation_input_tokens}), which it bills at prices of their own. A token budget counts
 * them all; a cost budget prices each kind at its price ({@code TokenEstimate.used}).
 *
 * <p>The counts are what a provider wrote, and a provider can write any number: every dialect reads
 * a count with {@link #count}, one past a {@code long}'s range as {@link Long#MAX_VALUE}, and sums of them
 * ({@link #total}, {@link #plus}: {@link Counts#sum}) saturate there instead of wrapping to a negative
 * count, which no budget or breaker could take.
 *
 * <p>Immutable. {@code Usage.of(12, 30).total() == 42}.
 *
 * @param inputTokens  tokens read, cached or not, {@code >= 0}
 * @param outputTokens tokens written, {@code >= 0}
 * @param cached       of the tokens read, those read from or written to the provider's cache
 */
public record Usage(long inputTokens, long outputTokens, CachedTokens cached) {

    /** No tokens. */
    public static final Usage ZERO = new Usage(0, 0);

    public Usage {
        Objects.requireNonNull(cached, "cached");
        if (inputTokens < 0) {
            throw new IllegalArgumentException("inputTokens must be >= 0, but was " + inputTokens);
        }
        if (outputTokens < 0) {
            throw new IllegalArgumentException("outputTokens must be >= 0, but was " + outputTokens);
        }
    }

    /** Usage of {@code inputTokens} in, none of them cached, and {@code outputTokens} out. */
    public Usage(long inputTokens, long outputTokens) {
        this(inputTokens, outputTokens, CachedTokens.NONE);
    }

    /**
     * Usage of {@code inputTokens} in, of which {@code cached} from or to the provider's cache, and
     * {@code outputTokens} out, as a provider's answer told them; cached tokens that do not fit in the
     * input ({@link CachedTokens#within}) are not told apart, so that no input is charged below its price.
     *
     * @throws MalformedAnswerException when a count is negative
     */
    public static Usage of(long inputTokens, long outputTokens, CachedTokens cached) {
        Usage usage = of(inputTokens, outputTokens);
        return cached.equals(CachedTokens.NONE) ? usage : new Usage(inputTokens, outputTokens, cached.within(inputTokens));
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
     * The cached tokens a provider told: {@code reads} read from its cache, {@code writes} written to it
     * for its default time and {@code hourWrites} for an hour.
     *
     * @throws MalformedAnswerException when a count is negative
     */
    public static CachedTokens cached(long reads, long writes, long hourWrites) {
        if (reads < 0 || writes < 0 || hourWrites < 0) {
            throw new MalformedAnswerException("its usage tells " + reads + " tokens read from the cache and "
                    + Counts.sum(writes, hourWrites) + " written to it: a count of tokens is never negative");
        }
        return reads == 0 && writes == 0 && hourWrites == 0 ? CachedTokens.NONE : new CachedTokens(reads, writes, hourWrites);
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
        return other.total() == 0 ? this : new Usage(Counts.sum(inputTokens, other.inputTokens),
                Counts.sum(outputTokens, other.outputTokens), cached.plus(other.cached));
    }

    /**
     * What this usage told beyond {@code before} (the part of a stream reported after it), each count
     * never below zero; cached tokens that no longer fit in what is left of the input are not told apart.
     */
    public Usage minus(Usage before) {
        long input = Math.max(0, inputTokens - before.inputTokens);
        CachedTokens rest = new CachedTokens(Math.max(0, cached.reads() - before.cached.reads()),
                Math.max(0, cached.writes() - before.cached.writes()),
                Math.max(0, cached.hourWrites() - before.cached.hourWrites()));
        return new Usage(input, Math.max(0, outputTokens - before.outputTokens), rest.within(input));
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
        return Counts.sum(inputTokens, outputTokens);
    }
}
