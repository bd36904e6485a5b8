package io.agentfuse.agent.tokens;

import java.util.Objects;

/**
 * A deliberately high estimate for models whose tokenizer is not available locally (Claude,
 * Gemini, open-weight models): another counter's result times a safety margin, rounded up.
 *
 * <p>{@link #standard()} is {@code cl100k_base} × {@value #STANDARD_MARGIN}. Why this and not
 * characters ÷ 3.5: a real byte-pair encoding follows the kind of text, so code, JSON and
 * Chinese or Japanese text (where one character is often a whole token or more) are not
 * underestimated several times over, as a character ratio would. Why a margin: tokenizers of
 * other vendors generally split the same text into somewhat more pieces than {@code cl100k}, and
 * the costs are lopsided; counting high only makes compaction start a little early, counting low
 * lets a request reach the provider and fail there. As soon as a provider reports real
 * {@code usage}, {@link UsageAwareTokenCounter} replaces the estimate for everything it covers.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * TokenCounter claude = EstimatingTokenCounter.standard();
 * TokenCounter cautious = new EstimatingTokenCounter(TiktokenCounter.cl100k(), 1.3);
 * }</pre>
 */
public final class EstimatingTokenCounter implements TokenCounter {

    /** The margin of {@link #standard()}. */
    public static final double STANDARD_MARGIN = 1.15;

    private final TokenCounter base;
    private final double margin;

    /**
     * @param base   the counter whose result is scaled
     * @param margin the factor, at least 1 (an estimate may only err high)
     */
    public EstimatingTokenCounter(TokenCounter base, double margin) {
        this.base = Objects.requireNonNull(base, "base");
        if (!(margin >= 1.0 && margin <= 10.0)) {
            throw new IllegalArgumentException("margin must be in [1, 10], but was " + margin);
        }
        this.margin = margin;
    }

    /** {@code cl100k_base} × {@value #STANDARD_MARGIN}. */
    public static EstimatingTokenCounter standard() {
        return Standard.INSTANCE;
    }

    @Override
    public int countText(String text) {
        int counted = base.countText(text);
        return counted == 0 ? 0 : (int) Math.ceil(counted * margin);
    }

    /** The base's bound times the margin, rounded up: never below {@link #countText}, as rounding up is monotone. */
    @Override
    public int upperBoundText(String text) {
        int bound = base.upperBoundText(text);
        return bound == 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(bound * margin));
    }

    /** The factor applied to the base count. */
    public double margin() {
        return margin;
    }

    @Override
    public String toString() {
        return "EstimatingTokenCounter[" + base + " x " + margin + "]";
    }

    private static final class Standard {
        static final EstimatingTokenCounter INSTANCE =
                new EstimatingTokenCounter(TiktokenCounter.cl100k(), STANDARD_MARGIN);
    }
}
