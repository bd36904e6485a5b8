package io.agentfuse.config;

import java.util.Map;
import java.util.Optional;

/**
 * The most tokens each model of the built-in table writes in one answer, as its vendor publishes
 * it: the highest {@code max_tokens} (Chat Completions: {@code max_completion_tokens}; Responses:
 * {@code max_output_tokens}; Gemini: {@code maxOutputTokens}) the provider takes. A request above
 * it is refused with 400 — Anthropic: {@code invalid_request_error} "max_tokens: 84300 > 64000, which
 * is the maximum allowed number of output tokens for claude-haiku-4-5-20251001"; OpenAI:
 * {@code invalid_request_error}, code {@code invalid_value}, "max_tokens is too large: 56072. This
 * model supports at most 16384 completion tokens …" — and a 400 is neither retried nor fallen back
 * from. The gateway asks no more than this of a model on its own behalf (the summary of the context
 * ladder, {@link ModelConfig#maxOutputTokens}). Kept beside {@link PublishedModels}, read the same way
 * ({@link #publishedOf}: a snapshot or a variant of an entry has the entry's limit).
 *
 * <p>Sources, as read in December 2026: Anthropic's "Models overview" and each model's overview page
 * on platform.claude.com ("Max output"): Claude Fable 5, 5.1, 5.2, Opus 5, 5.5, Sonnet 5, 5.5, Haiku
 * 5.5 and Opus 4.8 128K (the Fable 5 page: Mythos 5 "shares Claude Fable 5's specifications"), Opus
 * 4.7 and 4.6 128K (the "What's new in Claude Opus 4.8" page: "the same … as Claude Opus 4.7"; an SDK's
 * release notes correcting Opus 4.6–4.8 to 128 000), Opus 4.5, Sonnet 4.5, Haiku 4.5, Sonnet 4 and
 * Sonnet 3.7 64K, Opus 4 and 4.1 32K, Claude 3.5 Sonnet and Haiku 8 192, the Claude 3 models and older
 * 4 096. Sonnet 4.6 is listed at 64K by the overview and at 128K by that SDK: the smaller is kept. OpenAI's
 * model pages on developers.openai.com ("Max output tokens"): GPT-4o, GPT-4o mini and chatgpt-4o-latest
 * 16 384 (the first GPT-4o snapshot, {@code gpt-4o-2024-05-13}, 4 096), GPT-4.1, 4.1 mini and nano
 * 32 768, GPT-4 Turbo and GPT-3.5 Turbo 4 096, GPT-4 8 192, GPT-4.5 preview 16 384, the GPT-5 family up
 * to GPT-5.2 128 000 (GPT-5 Pro 272 000), o1, o1-pro, o3, o3-mini, o3-pro, o4-mini and their
 * deep-research models 100 000, o1-mini 65 536, o1-preview 32 768; GPT-5.4 to GPT-6.1 Sol, 128 000 in
 * the model cards of the AI gateways that serve them (Venice, oxen.ai), where one catalogue says 272 000
 * for GPT-5.5: where sources disagree the smaller is kept, since a limit too small only shortens what
 * the gateway asks for, and one too large is refused. Google's Gemini API model pages on ai.google.dev
 * ("Output token limit"): Gemini 2.5 Pro, Flash and Flash-Lite and the Gemini 3 Pro previews 65 536,
 * Gemini 2.0 Flash and 1.5 Pro 8 192.
 *
 * <p>A model the table does not know writes at most {@value #UNLISTED} tokens for the gateway
 * ({@link ModelConfig#publishedMaxOutput}) unless {@code models.<m>.maxOutputTokens} says otherwise:
 * the largest limit that every chat model served today takes (Claude 3 Haiku's and GPT-4 Turbo's,
 * the smallest listed), since a new or self-hosted model may take no more, and a summary of 4 096
 * tokens still replaces an older part of any size. Immutable and thread-safe.
 */
public final class ModelOutputLimits {

    /** The limit of a model the table does not know; see the class description. */
    public static final int UNLISTED = 4_096;

    private static final Map<String, Integer> MAX_OUTPUT = Map.ofEntries(
            Map.entry("claude-instant-1.2", 4_096),
            Map.entry("claude-2.0", 4_096),
            Map.entry("claude-2.1", 4_096),
            Map.entry("claude-3-haiku", 4_096),
            Map.entry("claude-3-sonnet", 4_096),
            Map.entry("claude-3-opus", 4_096),
            Map.entry("claude-3-5-haiku", 8_192),
            Map.entry("claude-3-5-sonnet", 8_192),
            Map.entry("claude-3-7-sonnet", 64_000),
            Map.entry("claude-haiku-4", 64_000),
            Map.entry("claude-haiku-4-5", 64_000),
            Map.entry("claude-sonnet-4", 64_000),
            Map.entry("claude-sonnet-4-5", 64_000),
            Map.entry("claude-sonnet-4-6", 64_000),
            Map.entry("claude-opus-4", 32_000),
            Map.entry("claude-opus-4-1", 32_000),
            Map.entry("claude-opus-4-5", 64_000),
            Map.entry("claude-opus-4-6", 128_000),
            Map.entry("claude-opus-4-7", 128_000),
            Map.entry("claude-opus-4-8", 128_000),
            Map.entry("claude-opus-5", 128_000),
            Map.entry("claude-opus-5-5", 128_000),
            Map.entry("claude-sonnet-5", 128_000),
            Map.entry("claude-sonnet-5-5", 128_000),
            Map.entry("claude-haiku-5-5", 128_000),
            Map.entry("claude-fable-5", 128_000),
            Map.entry("claude-fable-5-1", 128_000),
            Map.entry("claude-fable-5-2", 128_000),
            Map.entry("claude-mythos-5", 128_000),
            Map.entry("claude-mythos-5-1", 128_000),
            Map.entry("claude-mythos-5-2", 128_000),
            Map.entry("gpt-3.5-turbo", 4_096),
            Map.entry("gpt-4", 8_192),
            Map.entry("gpt-4-turbo", 4_096),
            Map.entry("gpt-4o", 16_384),
            Map.entry("gpt-4o-2024-05-13", 4_096),
            Map.entry("gpt-4o-mini", 16_384),
            Map.entry("chatgpt-4o-latest", 16_384),
            Map.entry("gpt-4.1", 32_768),
            Map.entry("gpt-4.1-mini", 32_768),
            Map.entry("gpt-4.1-nano", 32_768),
            Map.entry("gpt-4.5-preview", 16_384),
            Map.entry("gpt-5", 128_000),
            Map.entry("gpt-5-mini", 128_000),
            Map.entry("gpt-5-nano", 128_000),
            Map.entry("gpt-5-pro", 272_000),
            Map.entry("gpt-5-codex", 128_000),
            Map.entry("gpt-5.1", 128_000),
            Map.entry("gpt-5.2", 128_000),
            Map.entry("gpt-5.4", 128_000),
            Map.entry("gpt-5.5", 128_000),
            Map.entry("gpt-5.6-sol", 128_000),
            Map.entry("gpt-6-sol", 128_000),
            Map.entry("gpt-6.1-sol", 128_000),
            Map.entry("o1", 100_000),
            Map.entry("o1-mini", 65_536),
            Map.entry("o1-preview", 32_768),
            Map.entry("o3", 100_000),
            Map.entry("o3-mini", 100_000),
            Map.entry("o4-mini", 100_000),
            Map.entry("gemini-1.5-pro", 8_192),
            Map.entry("gemini-2.0-flash", 8_192),
            Map.entry("gemini-2.5-pro", 65_536),
            Map.entry("gemini-2.5-flash", 65_536),
            Map.entry("gemini-2.5-flash-lite", 65_536),
            Map.entry("gemini-3-pro-preview", 65_536),
            Map.entry("gemini-3.1-pro-preview", 65_536));

    private ModelOutputLimits() {
    }

    /**
     * The published output limit of {@code model} (any name): that of the longest entry it equals or
     * starts with, followed by a {@code -}, as {@link ModelFamilies#publishedWindowOf} reads windows
     * ({@code claude-haiku-4-5-20251001} is {@code claude-haiku-4-5}'s, {@code o3-pro} {@code o3}'s,
     * {@code gpt-4o-2024-05-13} its own); a cloud's name of a vendor's model is read as the vendor's
     * ({@code us.anthropic.claude-haiku-4-5-20251001-v1:0}). Empty when no entry fits.
     */
    public static Optional<Integer> publishedOf(String model) {
        return ModelFamilies.longestEntry(MAX_OUTPUT.keySet(), ModelFamilies.tableName(model)).map(MAX_OUTPUT::get);
    }

    /**
     * Whether a model called {@code name} upstream as {@code upstreamModel} has a limit of its own: the
     * operator {@code written} one, or the table knows it. Then its {@link ModelConfig#maxOutputTokens} is
     * also the most a caller's request may ask of it ({@link ModelConfig#maxOutputTokensKnown}): a
     * caller's {@code max_tokens} above the limit is refused 400 by the provider, and a 400 ends the
     * chain (a Claude Code turn asking 32 000 of a Claude model failed over to {@code gpt-4o-mini},
     * 16 384, only to be refused there). A model nobody described keeps what its callers ask: a
     * self-hosted model may take far more than the default the gateway's own summaries keep to.
     */
    public static boolean isKnown(String name, String upstreamModel, boolean written) {
        return written || publishedOf(upstreamModel).or(() -> publishedOf(name)).isPresent();
    }
}
