package io.agentfuse.springai;

import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.Counts;
import org.springframework.ai.chat.metadata.Usage;

import java.util.List;

/**
 * The tokens a Spring AI answer used, counted as the gateway counts the same answer: its input is
 * every token the model read, of which {@code cached} its provider's prompt cache served or kept
 * ({@link CachedTokens}, within the input), so that a cost budget prices cached input at the vendor's
 * cache prices and a token budget and the breaker's {@code tokenOveruse} trigger count every token.
 *
 * <p>Why a decision of its own: Spring AI's {@link Usage} tells the cache's reads and writes
 * ({@code getCacheReadInputTokens}, {@code getCacheWriteInputTokens}) but not whether its
 * {@code getPromptTokens} counts them. Each model passes on its provider's count: OpenAI's
 * {@code prompt_tokens} includes its cached tokens, while Anthropic's {@code input_tokens} and
 * Bedrock's {@code inputTokens} are the input the cache did not serve, its reads and writes beside
 * it. An Anthropic or Bedrock answer is known by its model's or its native usage's package (the
 * model's: a tool-calling loop sums its turns' usage into one without native usage); their cached
 * tokens are added to the input. So is any provider's that tells more cached tokens than prompt
 * tokens — they cannot be within them. Any other's are taken to be within. Spring AI tells no
 * hour-long cache write apart: every write is priced as one for the default time (Anthropic's
 * {@code ttl: 1h} writes, at twice the input price rather than 1.25 times, are undercounted).
 * Class names, not types, keep the module free of those providers' jars.
 *
 * <p>Immutable. For Anthropic's {@code input_tokens: 3000, cache_read_input_tokens: 95000,
 * cache_creation_input_tokens: 2000}: {@code inputTokens == 100_000}, {@code cached == (95 000, 2 000, 0)}.
 *
 * @param inputTokens  every token read, cached or not
 * @param cached       of them, those read from or written to the provider's cache
 * @param outputTokens tokens written
 * @param totalTokens  every token the call processed: input plus output, or the provider's total if more
 */
record SpringAiUsage(long inputTokens, CachedTokens cached, long outputTokens, long totalTokens) {

    /** No usage told. */
    static final SpringAiUsage NONE = new SpringAiUsage(0, CachedTokens.NONE, 0, 0);

    /** The packages of the models and native usages whose prompt tokens leave the cache's out (Anthropic, Bedrock). */
    private static final List<String> CACHE_BESIDE_INPUT = List.of("org.springframework.ai.anthropic.", "com.anthropic.",
            "org.springframework.ai.bedrock.", "software.amazon.awssdk.services.bedrockruntime.");

    /** The usage {@code usage} tells ({@code null}: {@link #NONE}) of an answer of {@code model} ({@code null}: not known). */
    static SpringAiUsage of(Usage usage, Object model) {
        if (usage == null) {
            return NONE;
        }
        long prompt = count(usage.getPromptTokens());
        long output = count(usage.getCompletionTokens());
        long reads = count(usage.getCacheReadInputTokens());
        long writes = count(usage.getCacheWriteInputTokens());
        CachedTokens cached = reads == 0 && writes == 0 ? CachedTokens.NONE : new CachedTokens(reads, writes, 0);
        long input = countsCacheBesideInput(usage, model) || cached.total() > prompt
                ? Counts.sum(prompt, cached.total()) : prompt;
        long told = count(usage.getTotalTokens());
        return new SpringAiUsage(input, cached.within(input), output, Math.max(told, Counts.sum(input, output)));
    }

    private static boolean countsCacheBesideInput(Usage usage, Object model) {
        return fromProviderCountingCacheBeside(model) || fromProviderCountingCacheBeside(usage.getNativeUsage());
    }

    private static boolean fromProviderCountingCacheBeside(Object made) {
        if (made == null) {
            return false;
        }
        String type = made.getClass().getName();
        return CACHE_BESIDE_INPUT.stream().anyMatch(type::startsWith);
    }

    private static long count(Number told) {
        return told == null || told.longValue() < 0 ? 0 : told.longValue();
    }

}
