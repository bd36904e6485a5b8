package io.agentfuse.config;

import io.agentfuse.core.budget.ModelPrice;

import java.util.Map;
import java.util.Set;

/**
 * The built-in table of {@link ModelFamilies}: the models agentfuse knows by name, their published
 * context windows in tokens and their list prices in USD per million tokens read and written. Kept
 * apart from the rules that read it so that a new model is a line here.
 *
 * <p>Sources, as read in December 2026: Anthropic's "Models overview" and each model's overview page
 * on platform.claude.com ("Model ID … Context window … Input pricing … Output pricing": Claude Opus
 * 4.6, Sonnet 4.6, Opus 4.8, Opus 5, Sonnet 5, Fable 5, Fable 5.1, Fable 5.2, Opus 5.5, Sonnet 5.5,
 * Haiku 5.5, Opus 4.5, Sonnet 4.5, Haiku 4.5; Claude Mythos 5, 5.1 and 5.2, by invitation only, are the
 * same models as Fable 5, 5.1 and 5.2 with their specifications and prices: the Fable 5 page, the Fable
 * 5.2 migration guide, Bedrock's model card of Mythos 5.2, 1M); Google's Gemini API model pages on ai.google.dev (Gemini 3 Pro
 * Preview, Gemini 3.1 Pro Preview: input token limit 1 048 576) and Vertex AI's model page of Gemini
 * 2.5 Flash-Lite (context window 1 048 576); OpenAI's model pages on developers.openai.com (GPT-5.1,
 * GPT-5-Codex: $1.25/$10, 400 000; o4-mini-deep-research: $2/$8, 200 000). Where a vendor's own page
 * was not to be had, the model cards of the clouds and AI gateways that serve the model were read:
 * Claude Opus 4.7 (Vertex AI and Bedrock model cards: 1M; price as for Opus 4.8), and OpenAI's
 * GPT-5.2, GPT-5.4, GPT-5.5, GPT-5.6 Sol, GPT-6 Sol and GPT-6.1 Sol (Vertex AI model garden, AI
 * gateways' catalogues that link OpenAI's model pages); GPT-5.4 Pro and GPT-5.5 Pro ($30/$180,
 * 1 050 000: Vercel AI Gateway's model pages, Venice's and APIYI's); GPT-5 Pro ($15/$120, 400 000: a
 * March 2026 digest of OpenAI's pricing page on deploybase.ai); GPT-5.2 Pro ($21/$168, 400 000: the
 * llm-prices catalogue) and GPT-5.1-Codex-Mini ($0.25/$2, 400 000: OpenRouter); GPT-5.1-Codex and
 * GPT-5.1-Codex-Max (400 000: Vercel AI Gateway), GPT-5.1-Codex ($1.25/$10), GPT-5.2-Codex and
 * GPT-5.3-Codex ($1.75/$14; margindash's OpenAI comparison, which gives no window); o1-pro ($150/$600),
 * o3-pro ($20/$80) and o3-deep-research ($10/$40), each 200 000 (OpenRouter's model pages); o1-preview
 * ($15/$60, margindash); Gemini 3.1 Pro Preview ($2/$12 up to 200 000 tokens of prompt, $4/$18 above:
 * Google's pricing page as quoted by two developer guides; Gemini 3 Pro Preview is shut down and
 * served by 3.1, so it is priced as 3.1). No source read gave a price for GPT-5.1-Codex-Max: it is in
 * the table of windows, not of prices. Where they disagree the window is the one that refuses least: the
 * overview pages of one month list Opus 4.7 and 4.8 at 1M where a client's release notes call their
 * bare ids 200K-only; OpenAI's 1M-class models are listed at 1 050 000 in total with 922 000 of input,
 * and the table keeps the total, as it does for GPT-5 (400 000). Prices are the base list prices
 * without batch or cache discounts; a model priced by tiers of prompt length is counted at the tier of
 * long prompts when the tiers differ by more than half (Claude Haiku 5.5: $0.10/$0.50 up to 100 000
 * tokens, $0.50/$2.50 above; the Gemini 3 Pro previews: $4/$18; an agent's prompts are long) and at
 * the base tier otherwise. A model without a price here is counted as {@link ModelFamilies#unpricedPriceOf}
 * says unless {@code models.<m>.price} names one.
 */
final class PublishedModels {

    /**
     * The models by name, with their published context windows. A name is in the table when it is an
     * entry or a snapshot of one ({@link ModelFamilies#isKnown}: {@code gpt-4o-2024-08-06},
     * {@code claude-sonnet-4-5-20250929}).
     */
    static final Map<String, Integer> WINDOWS = Map.ofEntries(
            Map.entry("claude-instant-1.2", 100_000),
            Map.entry("claude-2.0", 100_000),
            Map.entry("claude-2.1", 200_000),
            Map.entry("claude-3-haiku", 200_000),
            Map.entry("claude-3-sonnet", 200_000),
            Map.entry("claude-3-opus", 200_000),
            Map.entry("claude-3-5-haiku", 200_000),
            Map.entry("claude-3-5-sonnet", 200_000),
            Map.entry("claude-3-7-sonnet", 200_000),
            Map.entry("claude-haiku-4", 200_000),
            Map.entry("claude-haiku-4-5", 200_000),
            Map.entry("claude-sonnet-4", 200_000),
            Map.entry("claude-sonnet-4-5", 200_000),
            Map.entry("claude-sonnet-4-6", 1_000_000),
            Map.entry("claude-opus-4", 200_000),
            Map.entry("claude-opus-4-1", 200_000),
            Map.entry("claude-opus-4-5", 200_000),
            Map.entry("claude-opus-4-6", 1_000_000),
            Map.entry("claude-opus-4-7", 1_000_000),
            Map.entry("claude-opus-4-8", 1_000_000),
            Map.entry("claude-opus-5", 1_000_000),
            Map.entry("claude-opus-5-5", 1_000_000),
            Map.entry("claude-sonnet-5", 1_000_000),
            Map.entry("claude-sonnet-5-5", 1_000_000),
            Map.entry("claude-haiku-5-5", 1_000_000),
            Map.entry("claude-fable-5", 1_000_000),
            Map.entry("claude-fable-5-1", 1_000_000),
            Map.entry("claude-fable-5-2", 1_000_000),
            Map.entry("claude-mythos-5", 1_000_000),
            Map.entry("claude-mythos-5-1", 1_000_000),
            Map.entry("claude-mythos-5-2", 1_000_000),
            Map.entry("gpt-3.5-turbo", 16_385),
            Map.entry("gpt-4", 8_192),
            Map.entry("gpt-4-32k", 32_768),
            Map.entry("gpt-4-turbo", 128_000),
            Map.entry("gpt-4o", 128_000),
            Map.entry("gpt-4o-mini", 128_000),
            Map.entry("chatgpt-4o-latest", 128_000),
            Map.entry("gpt-4.1", 1_047_576),
            Map.entry("gpt-4.1-mini", 1_047_576),
            Map.entry("gpt-4.1-nano", 1_047_576),
            Map.entry("gpt-4.5-preview", 128_000),
            Map.entry("gpt-5", 400_000),
            Map.entry("gpt-5-mini", 400_000),
            Map.entry("gpt-5-nano", 400_000),
            Map.entry("gpt-5-pro", 400_000),
            Map.entry("gpt-5-codex", 400_000),
            Map.entry("gpt-5.1", 400_000),
            Map.entry("gpt-5.1-codex", 400_000),
            Map.entry("gpt-5.1-codex-mini", 400_000),
            Map.entry("gpt-5.1-codex-max", 400_000),
            Map.entry("gpt-5.2", 400_000),
            Map.entry("gpt-5.2-pro", 400_000),
            Map.entry("gpt-5.4", 1_050_000),
            Map.entry("gpt-5.4-pro", 1_050_000),
            Map.entry("gpt-5.5", 1_050_000),
            Map.entry("gpt-5.5-pro", 1_050_000),
            Map.entry("gpt-5.6-sol", 1_050_000),
            Map.entry("gpt-6-sol", 1_050_000),
            Map.entry("gpt-6.1-sol", 1_050_000),
            Map.entry("o1", 200_000),
            Map.entry("o1-mini", 128_000),
            Map.entry("o1-preview", 128_000),
            Map.entry("o1-pro", 200_000),
            Map.entry("o3", 200_000),
            Map.entry("o3-mini", 200_000),
            Map.entry("o3-pro", 200_000),
            Map.entry("o3-deep-research", 200_000),
            Map.entry("o4-mini", 200_000),
            Map.entry("o4-mini-deep-research", 200_000),
            Map.entry("gemini-1.5-pro", 2_097_152),
            Map.entry("gemini-2.5-pro", 1_048_576),
            Map.entry("gemini-2.5-flash", 1_048_576),
            Map.entry("gemini-2.5-flash-lite", 1_048_576),
            Map.entry("gemini-2.0-flash", 1_048_576),
            Map.entry("gemini-3-pro-preview", 1_048_576),
            Map.entry("gemini-3.1-pro-preview", 1_048_576));

    /**
     * List prices in USD per million input and output tokens, by model name; a snapshot of an entry
     * has its price ({@link ModelFamilies#priceOf}), any other name that starts with an entry does not.
     */
    static final Map<String, ModelPrice> PRICES = Map.ofEntries(
            Map.entry("claude-opus-4", ModelPrice.of("15", "75")),
            Map.entry("claude-opus-4-1", ModelPrice.of("15", "75")),
            Map.entry("claude-opus-4-5", ModelPrice.of("5", "25")),
            Map.entry("claude-opus-4-6", ModelPrice.of("5", "25")),
            Map.entry("claude-opus-4-7", ModelPrice.of("5", "25")),
            Map.entry("claude-opus-4-8", ModelPrice.of("5", "25")),
            Map.entry("claude-opus-5", ModelPrice.of("5", "25")),
            Map.entry("claude-opus-5-5", ModelPrice.of("4", "20")),
            Map.entry("claude-sonnet-4", ModelPrice.of("3", "15")),
            Map.entry("claude-sonnet-4-5", ModelPrice.of("3", "15")),
            Map.entry("claude-sonnet-4-6", ModelPrice.of("3", "15")),
            Map.entry("claude-sonnet-5", ModelPrice.of("2", "10")),
            Map.entry("claude-sonnet-5-5", ModelPrice.of("2", "10")),
            Map.entry("claude-haiku-4", ModelPrice.of("1", "5")),
            Map.entry("claude-haiku-4-5", ModelPrice.of("1", "5")),
            Map.entry("claude-haiku-5-5", ModelPrice.of("0.50", "2.50")),
            Map.entry("claude-fable-5", ModelPrice.of("10", "50")),
            Map.entry("claude-fable-5-1", ModelPrice.of("10", "50")),
            Map.entry("claude-fable-5-2", ModelPrice.of("8", "40")),
            Map.entry("claude-mythos-5", ModelPrice.of("10", "50")),
            Map.entry("claude-mythos-5-1", ModelPrice.of("10", "50")),
            Map.entry("claude-mythos-5-2", ModelPrice.of("8", "40")),
            Map.entry("claude-3-opus", ModelPrice.of("15", "75")),
            Map.entry("claude-3-7-sonnet", ModelPrice.of("3", "15")),
            Map.entry("claude-3-5-sonnet", ModelPrice.of("3", "15")),
            Map.entry("claude-3-5-haiku", ModelPrice.of("0.80", "4")),
            Map.entry("claude-3-haiku", ModelPrice.of("0.25", "1.25")),
            Map.entry("gpt-3.5-turbo", ModelPrice.of("0.50", "1.50")),
            Map.entry("gpt-4", ModelPrice.of("30", "60")),
            Map.entry("gpt-4-turbo", ModelPrice.of("10", "30")),
            Map.entry("gpt-4o", ModelPrice.of("2.50", "10")),
            Map.entry("gpt-4o-mini", ModelPrice.of("0.15", "0.60")),
            Map.entry("chatgpt-4o-latest", ModelPrice.of("5", "15")),
            Map.entry("gpt-4.1", ModelPrice.of("2", "8")),
            Map.entry("gpt-4.1-mini", ModelPrice.of("0.40", "1.60")),
            Map.entry("gpt-4.1-nano", ModelPrice.of("0.10", "0.40")),
            Map.entry("gpt-5", ModelPrice.of("1.25", "10")),
            Map.entry("gpt-5-mini", ModelPrice.of("0.25", "2")),
            Map.entry("gpt-5-nano", ModelPrice.of("0.05", "0.40")),
            Map.entry("gpt-5-pro", ModelPrice.of("15", "120")),
            Map.entry("gpt-5-codex", ModelPrice.of("1.25", "10")),
            Map.entry("gpt-5.1", ModelPrice.of("1.25", "10")),
            Map.entry("gpt-5.1-codex", ModelPrice.of("1.25", "10")),
            Map.entry("gpt-5.1-codex-mini", ModelPrice.of("0.25", "2")),
            Map.entry("gpt-5.2", ModelPrice.of("1.75", "14")),
            Map.entry("gpt-5.2-pro", ModelPrice.of("21", "168")),
            Map.entry("gpt-5.2-codex", ModelPrice.of("1.75", "14")),
            Map.entry("gpt-5.3-codex", ModelPrice.of("1.75", "14")),
            Map.entry("gpt-5.4", ModelPrice.of("2.50", "15")),
            Map.entry("gpt-5.4-pro", ModelPrice.of("30", "180")),
            Map.entry("gpt-5.5", ModelPrice.of("5", "30")),
            Map.entry("gpt-5.5-pro", ModelPrice.of("30", "180")),
            Map.entry("gpt-5.6-sol", ModelPrice.of("5", "30")),
            Map.entry("gpt-6-sol", ModelPrice.of("2", "10")),
            Map.entry("gpt-6.1-sol", ModelPrice.of("2", "10")),
            Map.entry("o1", ModelPrice.of("15", "60")),
            Map.entry("o1-mini", ModelPrice.of("1.10", "4.40")),
            Map.entry("o1-preview", ModelPrice.of("15", "60")),
            Map.entry("o1-pro", ModelPrice.of("150", "600")),
            Map.entry("o3", ModelPrice.of("2", "8")),
            Map.entry("o3-mini", ModelPrice.of("1.10", "4.40")),
            Map.entry("o3-pro", ModelPrice.of("20", "80")),
            Map.entry("o3-deep-research", ModelPrice.of("10", "40")),
            Map.entry("o4-mini", ModelPrice.of("1.10", "4.40")),
            Map.entry("o4-mini-deep-research", ModelPrice.of("2", "8")),
            Map.entry("gemini-2.5-pro", ModelPrice.of("1.25", "10")),
            Map.entry("gemini-2.5-flash", ModelPrice.of("0.30", "2.50")),
            Map.entry("gemini-2.5-flash-lite", ModelPrice.of("0.10", "0.40")),
            Map.entry("gemini-2.0-flash", ModelPrice.of("0.10", "0.40")),
            Map.entry("gemini-3-pro-preview", ModelPrice.of("4", "18")),
            Map.entry("gemini-3.1-pro-preview", ModelPrice.of("4", "18")));

    /**
     * Names of a model line that the vendor does not serve under that name, and the name it serves
     * that line's model of today by: a family model named so without a {@code models:} entry is called
     * upstream by the second ({@link ModelFamilies#servedNameOf}), where the first would be answered
     * 404 {@code not_found_error} ({@code "model: claude-haiku-4"}). The first is a name the
     * configuration keeps using (the defaults' {@code compactModel} and {@code subagents.fallbacks}
     * name {@code claude-haiku-4}), in answers' {@code x-agentfuse-model}, breakers and meters.
     *
     * <p>Sources, as read in December 2026: Anthropic's "Models overview" (Claude Haiku 4.5: API ID
     * {@code claude-haiku-4-5-20251001}, alias {@code claude-haiku-4-5}; there was never a Haiku 4.0,
     * so {@code claude-haiku-4} was never a model ID) and its "Model deprecations" page with the release
     * notes of June 2026 (Claude Sonnet 4 and Opus 4, {@code claude-sonnet-4-20250514} and
     * {@code claude-opus-4-20250514} with their aliases {@code claude-sonnet-4-0} and
     * {@code claude-opus-4-0}, retired on 15 June 2026; recommended replacements Claude Sonnet 4.6 and
     * Opus 4.8, whose IDs are {@code claude-sonnet-4-6} and {@code claude-opus-4-8}). The bare
     * {@code claude-sonnet-4} and {@code claude-opus-4} were never IDs either. OpenAI's
     * {@code gpt-4o-mini}, the defaults' other fallback, is served under that name (OpenAI's
     * deprecations page lists its shutdown for 14 January 2027), so it is not here.
     */
    static final Map<String, String> SERVED_NAMES = Map.of(
            "claude-haiku-4", "claude-haiku-4-5",
            "claude-sonnet-4", "claude-sonnet-4-6",
            "claude-opus-4", "claude-opus-4-8");

    /**
     * The words that name a family's premium tier: a model named with one is a different, far dearer
     * model than its base (o1-pro is 10× o1, gpt-5-pro 12× gpt-5, gpt-5.5-pro 6× gpt-5.5). Gemini's
     * {@code pro} is its standard tier and is no such word.
     */
    static final Map<String, Set<String>> PREMIUM_WORDS = Map.of("openai", Set.of("pro"));

    private PublishedModels() {
    }
}
