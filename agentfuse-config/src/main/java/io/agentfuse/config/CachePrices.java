package io.agentfuse.config;

import io.agentfuse.agent.tokens.ModelName;
import io.agentfuse.core.budget.ModelPrice;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;
import java.util.Optional;

/**
 * What the vendors of the built-in table ({@link PublishedModels}) charge for input their prompt
 * cache served or kept, beside their list prices: one rule where a vendor has one, a figure per
 * model where it varies. Without these a cost budget counted every cached token at the input price,
 * and an agent that reads 90 % of its input from the cache (Claude Code, Codex) was stopped after a
 * fraction of what it may spend. A model not named here keeps its cached input at the input price.
 *
 * <p>Sources, as read in December 2026: Anthropic's prompt-caching and pricing pages on
 * platform.claude.com — a cache read costs 0.1 times the base input price, a write kept 5 minutes
 * 1.25 times, a write kept an hour 2 times, for every Claude model (the figures of each model's row
 * are these multiples; clients that bill Claude's usage, as the claude-session-parser and synaps
 * crates do, price it so). OpenAI's pricing page on developers.openai.com, its "Cached input" column,
 * as digested by those who read it (api-evangelist's reading of November 2026: a tenth of the input
 * price on the newest models, a quarter to a half on older ones; the adk-model crate's table: GPT-5
 * family 90 % off, GPT-4.1 family 75 %, GPT-4o and o1 50 %; llmcalc.app for o3-mini's $0.55); OpenAI
 * bills no cache write. Models that list no cached price (the {@code -pro} tiers, gpt-4, gpt-4-turbo,
 * gpt-3.5-turbo, chatgpt-4o-latest) and those whose figure no source read gave alike (gpt-5.6-sol,
 * gpt-6-sol, gpt-6.1-sol) are not named. One digest gave GPT-5 $0.625 and o3 $1.00, half of the input
 * price, against every other source and OpenAI's own statement of 90 % off for the GPT-5 family.
 * Gemini's cached input is not priced here: Google's pages of different months give it as 10 % and
 * 25 % of the input price, with a storage price by the hour besides, so it stays at the input price,
 * which never counts less than was spent.
 */
final class CachePrices {

    /** Anthropic's multiples of the input price: a cache read, a 5-minute write, a 1-hour write. */
    private static final BigDecimal ANTHROPIC_READ = new BigDecimal("0.1");
    private static final BigDecimal ANTHROPIC_WRITE = new BigDecimal("1.25");
    private static final BigDecimal ANTHROPIC_HOUR_WRITE = new BigDecimal("2");

    /** OpenAI's cached input price in USD per million tokens, by entry of {@link PublishedModels#PRICES}. */
    private static final Map<String, BigDecimal> OPENAI_CACHED_INPUT = Map.ofEntries(
            Map.entry("gpt-4o", new BigDecimal("1.25")),
            Map.entry("gpt-4o-mini", new BigDecimal("0.075")),
            Map.entry("gpt-4.1", new BigDecimal("0.50")),
            Map.entry("gpt-4.1-mini", new BigDecimal("0.10")),
            Map.entry("gpt-4.1-nano", new BigDecimal("0.025")),
            Map.entry("gpt-5", new BigDecimal("0.125")),
            Map.entry("gpt-5-mini", new BigDecimal("0.025")),
            Map.entry("gpt-5-nano", new BigDecimal("0.005")),
            Map.entry("gpt-5-codex", new BigDecimal("0.125")),
            Map.entry("gpt-5.1", new BigDecimal("0.125")),
            Map.entry("gpt-5.1-codex", new BigDecimal("0.125")),
            Map.entry("gpt-5.1-codex-mini", new BigDecimal("0.025")),
            Map.entry("gpt-5.2", new BigDecimal("0.175")),
            Map.entry("gpt-5.2-codex", new BigDecimal("0.175")),
            Map.entry("gpt-5.3-codex", new BigDecimal("0.175")),
            Map.entry("gpt-5.4", new BigDecimal("0.25")),
            Map.entry("gpt-5.5", new BigDecimal("0.50")),
            Map.entry("o1", new BigDecimal("7.50")),
            Map.entry("o1-mini", new BigDecimal("0.55")),
            Map.entry("o3", new BigDecimal("0.50")),
            Map.entry("o3-mini", new BigDecimal("0.55")),
            Map.entry("o3-deep-research", new BigDecimal("2.50")),
            Map.entry("o4-mini", new BigDecimal("0.275")),
            Map.entry("o4-mini-deep-research", new BigDecimal("0.50")));

    private CachePrices() {
    }

    /**
     * {@code written}, a price a configuration gave without cache prices, with cache prices in the
     * proportion to its input price that the vendor charges for {@code upstreamModel}: those of
     * {@code listed}, the table's price of the model, when it tells them; Anthropic's multiples for any
     * Claude model the table does not list (a Bedrock or Vertex AI name of a new one); else none, and
     * cached input stays at the input price.
     */
    static ModelPrice relativeTo(ModelPrice written, Optional<ModelPrice> listed, String upstreamModel) {
        if (listed.isPresent() && listed.get().input().signum() > 0 && listed.get().cacheRead() != null) {
            ModelPrice table = listed.get();
            return written.withCache(scaled(table.cacheRead(), table, written), scaled(table.cacheWrite(), table, written),
                    scaled(table.cacheWrite1h(), table, written));
        }
        return ModelName.of(upstreamModel).isClaude() ? anthropic(written) : written;
    }

    /** {@code cached}, a cache price of {@code table}, in the same proportion to {@code written}'s input. */
    private static BigDecimal scaled(BigDecimal cached, ModelPrice table, ModelPrice written) {
        return cached == null ? null
                : cached.multiply(written.input()).divide(table.input(), MathContext.DECIMAL64).stripTrailingZeros();
    }

    /** {@code listed}, the list price of table entry {@code entry}, with what its vendor charges for cached input. */
    static ModelPrice withCache(String entry, ModelPrice listed) {
        if (ModelName.of(entry).isClaude()) {
            return anthropic(listed);
        }
        BigDecimal cachedInput = OPENAI_CACHED_INPUT.get(entry);
        return cachedInput == null ? listed : listed.withCache(cachedInput, null, null);
    }

    /** {@code price} with Anthropic's cache prices: its multiples of {@code price}'s input. */
    private static ModelPrice anthropic(ModelPrice price) {
        BigDecimal input = price.input();
        return price.withCache(input.multiply(ANTHROPIC_READ), input.multiply(ANTHROPIC_WRITE),
                input.multiply(ANTHROPIC_HOUR_WRITE));
    }
}
