package io.agentfuse.core.budget;

/**
 * The input tokens of a call that its provider read from or wrote to its prompt cache, as it
 * reported them: each is a part of the call's input tokens, which count every token read. Vendors
 * bill them at prices of their own — Anthropic a cache read at a tenth of the input price, a cache
 * write at 1.25 times it (2 times when kept an hour); OpenAI a cached token at a discount by model —
 * and agents that resend their conversation (Claude Code, Codex) read most of their input from the
 * cache, so a cost counted at the input price alone would be several times what they spent.
 *
 * <p>Immutable. {@code new CachedTokens(95_000, 2_000, 0).total() == 97_000}.
 *
 * @param reads      input tokens read from the cache, {@code >= 0}
 * @param writes     input tokens written to the cache to be kept the vendor's default time (Anthropic's
 *                   5 minutes), {@code >= 0}
 * @param hourWrites input tokens written to the cache to be kept an hour (Anthropic's {@code ttl: 1h}),
 *                   {@code >= 0}
 */
public record CachedTokens(long reads, long writes, long hourWrites) {

    /** No token read from or written to a cache. */
    public static final CachedTokens NONE = new CachedTokens(0, 0, 0);

    public CachedTokens {
        if (reads < 0 || writes < 0 || hourWrites < 0) {
            throw new IllegalArgumentException("cached tokens must be >= 0, but were " + reads + " read, "
                    + writes + " written and " + hourWrites + " written for an hour");
        }
    }

    /** {@code reads} tokens read from the cache, none written. */
    public static CachedTokens ofReads(long reads) {
        return reads == 0 ? NONE : new CachedTokens(reads, 0, 0);
    }

    /** Every cached token: reads and both kinds of writes (saturating at {@link Long#MAX_VALUE}). */
    public long total() {
        return Counts.sum(Counts.sum(reads, writes), hourWrites);
    }

    /** Both kinds of writes (saturating at {@link Long#MAX_VALUE}). */
    public long allWrites() {
        return Counts.sum(writes, hourWrites);
    }

    /** The cached tokens of this call and {@code other} together (saturating at {@link Long#MAX_VALUE}). */
    public CachedTokens plus(CachedTokens other) {
        return other.equals(NONE) ? this : new CachedTokens(Counts.sum(reads, other.reads),
                Counts.sum(writes, other.writes), Counts.sum(hourWrites, other.hourWrites));
    }

    /**
     * These cached tokens when they fit in {@code inputTokens}, the call's whole input; else — a
     * provider that told more cached tokens than it read, which none does — {@link #NONE}, so that
     * every input token is charged at the input price rather than some at a discount no one earned.
     */
    public CachedTokens within(long inputTokens) {
        return total() <= inputTokens ? this : NONE;
    }
}
