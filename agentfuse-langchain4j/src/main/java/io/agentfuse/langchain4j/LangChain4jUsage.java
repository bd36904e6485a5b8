package io.agentfuse.langchain4j;

import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.langchain4j.model.output.TokenUsage;
import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.Counts;

/**
 * The tokens a LangChain4j answer used, counted as the gateway counts the same answer: its input is
 * every token the model read, of which {@code cached} its provider's prompt cache served or kept
 * ({@link CachedTokens}, within the input), so that a cost budget prices cached input at the vendor's
 * cache prices and a token budget and the breaker's {@code tokenOveruse} trigger count every token.
 *
 * <p>Why it reads the providers' own usage: LangChain4j's {@link TokenUsage} tells input and output
 * only. Its Anthropic models answer an {@link AnthropicTokenUsage} whose input count is Anthropic's
 * {@code input_tokens}, the input the cache did not serve: the cache's reads and writes come beside
 * it, and are added to it here (Anthropic bills a read at a tenth of the input price, so a Claude Code
 * turn counted at its input count alone was a fraction of its tokens, and at the input price ten
 * times its cost). Its OpenAI models answer an {@link OpenAiTokenUsage} whose input count is
 * {@code prompt_tokens}, which includes the cached ones it tells apart. LangChain4j tells no hour-long
 * cache write apart (its Anthropic models write none): every write is one for the default time. Other
 * providers' usage tells no cache: all its input is at the input price, as before.
 *
 * <p>Why no compile-time need of those providers: the module depends on them optionally, and a
 * provider's reader, a class of its own, is loaded only when its usage class is on this class's class
 * path ({@link #ANTHROPIC}, {@link #OPENAI}): an application with one provider never loads the other's.
 *
 * <p>Immutable. For Anthropic's {@code input_tokens: 3000, cache_read_input_tokens: 95000,
 * cache_creation_input_tokens: 2000}: {@code inputTokens == 100_000}, {@code cached == (95 000, 2 000, 0)}.
 *
 * @param inputTokens  every token read, cached or not
 * @param cached       of them, those read from or written to the provider's cache
 * @param outputTokens tokens written
 * @param totalTokens  every token the call processed: input plus output, or the provider's total if more
 */
record LangChain4jUsage(long inputTokens, CachedTokens cached, long outputTokens, long totalTokens) {

    /** No usage told. */
    static final LangChain4jUsage NONE = new LangChain4jUsage(0, CachedTokens.NONE, 0, 0);

    private static final boolean ANTHROPIC = present("dev.langchain4j.model.anthropic.AnthropicTokenUsage");
    private static final boolean OPENAI = present("dev.langchain4j.model.openai.OpenAiTokenUsage");

    /** The usage {@code usage} tells ({@code null}: {@link #NONE}). */
    static LangChain4jUsage of(TokenUsage usage) {
        if (usage == null) {
            return NONE;
        }
        long input = count(usage.inputTokenCount());
        long output = count(usage.outputTokenCount());
        CachedTokens beside = ANTHROPIC ? Anthropic.cachedBesideInput(usage) : CachedTokens.NONE;
        CachedTokens cached = beside;
        if (!beside.equals(CachedTokens.NONE)) {
            input = Counts.sum(input, beside.total());
        } else if (OPENAI) {
            cached = OpenAi.cachedWithinInput(usage).within(input);
        }
        long told = usage.totalTokenCount() == null ? 0 : usage.totalTokenCount();
        return new LangChain4jUsage(input, cached, output, Math.max(told, Counts.sum(input, output)));
    }

    private static long count(Integer told) {
        return told == null || told < 0 ? 0 : told;
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, LangChain4jUsage.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }

    /** Anthropic's usage: the cache's reads and writes, which its input count leaves out. Loaded only with it. */
    private static final class Anthropic {
        static CachedTokens cachedBesideInput(TokenUsage usage) {
            if (!(usage instanceof AnthropicTokenUsage anthropic)) {
                return CachedTokens.NONE;
            }
            long reads = count(anthropic.cacheReadInputTokens());
            long writes = count(anthropic.cacheCreationInputTokens());
            return reads == 0 && writes == 0 ? CachedTokens.NONE : new CachedTokens(reads, writes, 0);
        }
    }

    /** OpenAI's usage: the cached tokens of its input count. Loaded only with it. */
    private static final class OpenAi {
        static CachedTokens cachedWithinInput(TokenUsage usage) {
            if (!(usage instanceof OpenAiTokenUsage openAi) || openAi.inputTokensDetails() == null) {
                return CachedTokens.NONE;
            }
            return CachedTokens.ofReads(count(openAi.inputTokensDetails().cachedTokens()));
        }
    }
}
