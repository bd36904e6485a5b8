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
 * TokenCounter claude = EstimatingTokenCounter.standard();          // Claude Opus 4.6 and earlier
 * TokenCounter opus47 = EstimatingTokenCounter.newerClaude();        // Claude Opus 4.7 and later
 * TokenCounter cautious = new EstimatingTokenCounter(TiktokenCounter.cl100k(), 1.3);
 * }</pre>
 */
public final class EstimatingTokenCounter implements TokenCounter {

    /** The margin of {@link #standard()}. */
    public static final double STANDARD_MARGIN = 1.15;

    /**
     * How many more tokens the tokenizer of Claude Opus 4.7 and later makes of a text than the earlier
     * Claude models did, at most, by Anthropic's release notes: "roughly 1× to 1.35×", varying by
     * content. The standard margin was set against the earlier models, so {@link #newerClaude()}
     * multiplies it by this, to 1.55 × {@code cl100k_base}. Independent measurements with Anthropic's
     * token counter found more on Latin-script prose (up to 1.45-1.47× on English prose and technical
     * documents), 1.13-1.30× on code and none on Chinese, Japanese or Korean; the factor is Anthropic's
     * own figure, not those, and the headroom of the standard margin over the earlier tokenizer, which
     * no source measured, is what stands between them. Token budgets settle at the provider's reported
     * usage, so only the window check and a reservation depend on this estimate.
     */
    public static final double NEWER_CLAUDE_FACTOR = 1.35;

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

    /**
     * {@code cl100k_base} × {@value #STANDARD_MARGIN} × {@value #NEWER_CLAUDE_FACTOR}: the estimate for
     * the Claude models whose tokenizer makes more tokens of a text ({@link ModelName#hasClaudeTokenizerOf47}).
     */
    public static EstimatingTokenCounter newerClaude() {
        return NewerClaude.INSTANCE;
    }

    /** The factor applied to the base count. */
    public double margin() {
        return margin;
    }

    @Override
    public String toString() {
        return "EstimatingTokenCounter[" + base + " x " + margin + "]";
    }

    private static final class NewerClaude {
        static final EstimatingTokenCounter INSTANCE =
                new EstimatingTokenCounter(TiktokenCounter.cl100k(), STANDARD_MARGIN * NEWER_CLAUDE_FACTOR);
    }

    private static final class Standard {
        static final EstimatingTokenCounter INSTANCE =
                new EstimatingTokenCounter(TiktokenCounter.cl100k(), STANDARD_MARGIN);
    }
}
