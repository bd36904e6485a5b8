package io.agentfuse.agent.context;

import io.agentfuse.core.internal.Checks;

/**
 * Where each rung of the context ladder starts, as a share of the context window, plus the room
 * kept for the reply and how much recent history compaction keeps verbatim. Immutable; validated
 * on construction, so an instance is always usable.
 *
 * <p>Defaults (from the seed): {@code warnAt} 0.70, {@code autoCompactAt} 0.80,
 * {@code snipAt} 0.92, {@code rejectAt} 0.95, {@code reserveOutputTokens} 0,
 * {@code keepRecentTurns} 6. The four thresholds must lie in (0, 1] and strictly increase; they
 * are compared at a resolution of one millionth, with exact integer arithmetic, so that exactly
 * 70 % of a window is WARNING and one token less is NORMAL.
 *
 * <pre>{@code
 * ContextConfig config = ContextConfig.builder().warnAt(0.6).reserveOutputTokens(8_000).build();
 * }</pre>
 *
 * @param warnAt              share from which the level is {@link ContextLevel#WARNING}
 * @param autoCompactAt       share from which the level is {@link ContextLevel#AUTO_COMPACT}
 * @param snipAt              share from which the level is {@link ContextLevel#SNIP_COMPACT}
 * @param rejectAt            share from which the level is {@link ContextLevel#REJECT}
 * @param reserveOutputTokens tokens kept free for the reply; they count as used
 * @param keepRecentTurns     turns that summarising leaves verbatim at the end of a conversation
 */
public record ContextConfig(double warnAt, double autoCompactAt, double snipAt, double rejectAt,
                            int reserveOutputTokens, int keepRecentTurns) {

    /** Millionths of a window: the resolution at which thresholds are compared. */
    static final long PARTS = 1_000_000L;

    /** @throws IllegalArgumentException naming the first key with a bad value */
    public ContextConfig {
        Checks.share("warnAt", warnAt);
        Checks.share("autoCompactAt", autoCompactAt);
        Checks.share("snipAt", snipAt);
        Checks.share("rejectAt", rejectAt);
        requireAbove("autoCompactAt", autoCompactAt, "warnAt", warnAt);
        requireAbove("snipAt", snipAt, "autoCompactAt", autoCompactAt);
        requireAbove("rejectAt", rejectAt, "snipAt", snipAt);
        Checks.atLeast("reserveOutputTokens", reserveOutputTokens, 0);
        Checks.atLeast("keepRecentTurns", keepRecentTurns, 0);
    }

    /** The seed's ladder: 70 %, 80 %, 92 %, 95 %, no reserve, keep 6 turns. */
    public static ContextConfig defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this config. */
    public Builder toBuilder() {
        return new Builder().warnAt(warnAt).autoCompactAt(autoCompactAt).snipAt(snipAt).rejectAt(rejectAt)
                .reserveOutputTokens(reserveOutputTokens).keepRecentTurns(keepRecentTurns);
    }

    /** Where {@code level} starts, in millionths of the window; 0 for {@link ContextLevel#NORMAL}. */
    long startInParts(ContextLevel level) {
        return switch (level) {
            case NORMAL -> 0L;
            case WARNING -> toParts(warnAt);
            case AUTO_COMPACT -> toParts(autoCompactAt);
            case SNIP_COMPACT -> toParts(snipAt);
            case REJECT -> toParts(rejectAt);
        };
    }

    private static long toParts(double share) {
        return Math.round(share * PARTS);
    }

    private static void requireAbove(String key, double value, String lowerKey, double lower) {
        if (toParts(value) <= toParts(lower)) {
            throw new IllegalArgumentException(
                    key + " must be greater than " + lowerKey + " (" + lower + "), but was " + value);
        }
    }

    /** Builds a {@link ContextConfig}; each setter rejects a bad value at once. Not thread-safe. */
    public static final class Builder {
        private double warnAt = 0.70;
        private double autoCompactAt = 0.80;
        private double snipAt = 0.92;
        private double rejectAt = 0.95;
        private int reserveOutputTokens;
        private int keepRecentTurns = 6;

        private Builder() {
        }

        /** Share from which the level is WARNING; default 0.70. */
        public Builder warnAt(double share) {
            this.warnAt = Checks.share("warnAt", share);
            return this;
        }

        /** Share from which the level is AUTO_COMPACT; default 0.80. */
        public Builder autoCompactAt(double share) {
            this.autoCompactAt = Checks.share("autoCompactAt", share);
            return this;
        }

        /** Share from which the level is SNIP_COMPACT; default 0.92. */
        public Builder snipAt(double share) {
            this.snipAt = Checks.share("snipAt", share);
            return this;
        }

        /** Share from which the level is REJECT; default 0.95. */
        public Builder rejectAt(double share) {
            this.rejectAt = Checks.share("rejectAt", share);
            return this;
        }

        /** Tokens kept free for the reply, counted as used; default 0. */
        public Builder reserveOutputTokens(int tokens) {
            this.reserveOutputTokens = Checks.atLeast("reserveOutputTokens", tokens, 0);
            return this;
        }

        /** Turns that summarising keeps verbatim; default 6. */
        public Builder keepRecentTurns(int turns) {
            this.keepRecentTurns = Checks.atLeast("keepRecentTurns", turns, 0);
            return this;
        }

        /**
         * The config.
         *
         * @throws IllegalArgumentException if the thresholds do not strictly increase
         */
        public ContextConfig build() {
            return new ContextConfig(warnAt, autoCompactAt, snipAt, rejectAt, reserveOutputTokens, keepRecentTurns);
        }
    }
}
