package io.agentfuse.agent.context;

import java.util.Objects;

/**
 * The context-budget ladder for one context window: which {@link ContextLevel} a number of used
 * tokens falls on, and where each level starts.
 *
 * <p>Reserved output tokens count as used. Boundaries are exact: a level applies from the first
 * token count whose share of the window, computed in integers, reaches its threshold, so with a
 * window of 1 000 tokens and the default ladder, 699 is NORMAL, 700 WARNING, 800 AUTO_COMPACT,
 * 920 SNIP_COMPACT and 950 REJECT. Immutable and thread-safe.
 *
 * <pre>{@code
 * ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), 200_000);
 * ContextLevel level = budget.levelOf(150_000);          // WARNING (75 %)
 * long compactFrom = budget.startOf(ContextLevel.AUTO_COMPACT);   // 160_000
 * }</pre>
 */
public final class ContextBudget {

    /** The levels, emptiest first: {@code values()} would copy them on every look. */
    private static final ContextLevel[] LEVELS = ContextLevel.values();

    private final ContextConfig config;
    private final long windowTokens;
    /** {@link #startOf} of each level, by ordinal: worked out once, not for each request. */
    private final long[] starts = new long[LEVELS.length];

    private ContextBudget(ContextConfig config, long windowTokens) {
        this.config = config;
        this.windowTokens = windowTokens;
        for (ContextLevel level : LEVELS) {
            // Smallest u with (u + reserve) * PARTS >= threshold * window.
            long thresholdTimesWindow = config.startInParts(level) * windowTokens;
            long start = Math.floorDiv(thresholdTimesWindow + ContextConfig.PARTS - 1, ContextConfig.PARTS)
                    - config.reserveOutputTokens();
            starts[level.ordinal()] = Math.max(0L, start);
        }
    }

    /**
     * The ladder of {@code config} over a window of {@code windowTokens}.
     *
     * @throws IllegalArgumentException if the window is not positive, or the output reserve alone
     *                                  fills it
     */
    public static ContextBudget of(ContextConfig config, long windowTokens) {
        Objects.requireNonNull(config, "config");
        if (windowTokens < 1) {
            throw new IllegalArgumentException("windowTokens must be >= 1, but was " + windowTokens);
        }
        if (config.reserveOutputTokens() >= windowTokens) {
            throw new IllegalArgumentException("reserveOutputTokens must be less than windowTokens ("
                    + windowTokens + "), but was " + config.reserveOutputTokens());
        }
        return new ContextBudget(config, windowTokens);
    }

    /**
     * The level on which {@code usedTokens} (plus the output reserve) falls.
     *
     * @throws IllegalArgumentException if {@code usedTokens} is negative
     */
    public ContextLevel levelOf(long usedTokens) {
        if (usedTokens < 0) {
            throw new IllegalArgumentException("usedTokens must be >= 0, but was " + usedTokens);
        }
        for (int i = LEVELS.length - 1; i > 0; i--) {
            if (usedTokens >= starts[i]) {
                return LEVELS[i];
            }
        }
        return ContextLevel.NORMAL;
    }

    /**
     * The fewest used tokens (not counting the reserve) at which {@code level} or a fuller one
     * applies; 0 for {@link ContextLevel#NORMAL}. A conversation is below {@code level} exactly
     * when it uses fewer tokens than this.
     */
    public long startOf(ContextLevel level) {
        return starts[level.ordinal()];
    }

    /** The share of the window in use, reserve included, for display; may exceed 1. */
    public double usedShare(long usedTokens) {
        return (double) (usedTokens + config.reserveOutputTokens()) / windowTokens;
    }

    /** The context window, in tokens. */
    public long windowTokens() {
        return windowTokens;
    }

    /** The thresholds and reserve. */
    public ContextConfig config() {
        return config;
    }

    @Override
    public String toString() {
        return "ContextBudget[window=" + windowTokens + ", " + config + "]";
    }
}
