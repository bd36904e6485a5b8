package io.agentfuse.agent.budget;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.ModelPrice;

/**
 * How much a call reserves before it runs: its counted input plus the output it may write —
 * {@code max_tokens} when the request sets it, else {@value #DEFAULT_OUTPUT_TOKENS} — capped so
 * that input and output together fit the model's context window (a call cannot use more). The
 * one rule of the gateway and of the library decorators. The call settles with its real usage.
 *
 * <p>Pure. {@code TokenEstimate.tokens(1_000, null, 200_000) == 5_096}.
 */
public final class TokenEstimate {

    /**
     * The output a request without {@code max_tokens} is taken to write. A reservation of the whole
     * window would stop a budget's concurrent calls long before it is spent; a longer answer is
     * still counted in full when it settles.
     */
    public static final int DEFAULT_OUTPUT_TOKENS = 4_096;

    private TokenEstimate() {
    }

    /**
     * The output tokens reserved for a call of {@code inputTokens} that asks for {@code maxOutputTokens}
     * ({@code null}: not said) of a model whose window is {@code contextWindow} tokens.
     */
    public static long outputTokens(long inputTokens, Integer maxOutputTokens, int contextWindow) {
        long wanted = maxOutputTokens == null || maxOutputTokens < 0 ? DEFAULT_OUTPUT_TOKENS : maxOutputTokens;
        return Math.max(0, Math.min(wanted, contextWindow - inputTokens));
    }

    /** The tokens reserved: {@code inputTokens} plus {@link #outputTokens}. */
    public static long tokens(long inputTokens, Integer maxOutputTokens, int contextWindow) {
        return inputTokens + outputTokens(inputTokens, maxOutputTokens, contextWindow);
    }

    /**
     * The amount reserved: {@link #tokens} and, when {@code price} is known, their cost (the
     * output at the output price); without a price the cost is 0.
     */
    public static BudgetAmount of(long inputTokens, Integer maxOutputTokens, int contextWindow, ModelPrice price) {
        long output = outputTokens(inputTokens, maxOutputTokens, contextWindow);
        return new BudgetAmount(inputTokens + output, price == null ? 0 : price.costNanos(inputTokens, output));
    }

    /**
     * What a call that reserved {@code estimate} is charged when its provider told {@code told}: that
     * account when it is {@code accounted} for; else — no account came (an answer that tells no
     * tokens, a stream that broke before its final one) — the reservation, or what was told if more
     * (the provider bills what it read and wrote, which was not counted).
     */
    public static BudgetAmount charged(BudgetAmount estimate, BudgetAmount told, boolean accounted) {
        if (accounted) {
            return told;
        }
        return new BudgetAmount(Math.max(told.tokens(), estimate.tokens()), Math.max(told.costNanos(), estimate.costNanos()));
    }

    /** What a call that read {@code inputTokens} and wrote {@code outputTokens} used, at {@code price} (none: no cost). */
    public static BudgetAmount used(long inputTokens, long outputTokens, ModelPrice price) {
        return used(inputTokens, CachedTokens.NONE, outputTokens, price);
    }

    /**
     * What a call that read {@code inputTokens}, of which {@code cached} from or to its provider's
     * prompt cache, and wrote {@code outputTokens} used, at {@code price} (none: no cost). Its tokens
     * are every token read and written, cached or not (a {@code tokens} budget counts what a model
     * processed); its cost prices each kind of input at its own price ({@link ModelPrice#costNanos(long,
     * CachedTokens, long)}). The reservation before the call ({@link #of}) prices all its input at
     * the input price, the most it can cost.
     */
    public static BudgetAmount used(long inputTokens, CachedTokens cached, long outputTokens, ModelPrice price) {
        // The counts are a provider's: their sum saturates (BudgetAmount.plus) rather than wrapping below zero.
        return BudgetAmount.ofTokens(inputTokens).plus(new BudgetAmount(outputTokens,
                price == null ? 0 : price.costNanos(inputTokens, cached, outputTokens)));
    }
}
