package io.agentfuse.config;

import io.agentfuse.core.budget.ModelPrice;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the {@code models:} section: a model name clients may ask for, and how calls to
 * it are guarded.
 *
 * <p>Only {@code provider} is required. Defaults ({@link ConfigDefaults}): {@code upstreamModel}
 * is the key itself, {@code contextWindow} and {@code maxOutputTokens} the built-in table's (else 200 000
 * and 4 096: {@link #publishedWindow}, {@link #publishedMaxOutput}), {@code timeout: 60s},
 * {@code firstTokenTimeout: 20s}, {@code maxConcurrent: 64}, no fallbacks,
 * {@code breaker: default}, the top-level {@code retry}, {@code translate: strict}, no {@code deadline}, no {@code hedge},
 * {@code streamIdleTimeout: 60s}, {@code streamContinuation: false}, and the list price
 * of the built-in table ({@link ModelFamilies#priceOf}, by {@code upstreamModel}, else by name). The loader has checked every
 * reference: the provider exists, each fallback is another configured model. The breaker is
 * resolved (named entry or inline map) and the retry merged, so nothing needs looking up.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * models:
 *   claude-sonnet-4:
 *     provider: anthropic
 *     upstreamModel: claude-sonnet-4-5
 *     fallbacks: [claude-haiku-4, gpt-4o-mini]
 *     breaker: default
 *     retry: { maxAttempts: 4 }
 *     price: { input: 3.00, output: 15.00 }   # USD per 1M tokens
 *     deadline: 90s
 *     hedge: { after: 2s, maxShare: 10% }
 *     streamIdleTimeout: 60s
 *     streamContinuation: true
 * }</pre>
 *
 * @param name              the key under {@code models}: what clients put in {@code "model"}
 * @param provider          the key of the provider that serves it
 * @param upstreamModel     what the provider calls the model
 * @param contextWindow     tokens the model can take in ({@code >= 1})
 * @param maxOutputTokens   the most tokens the model writes in one answer ({@code >= 1}): the
 *                          {@code maxOutputTokens} written, else {@link #publishedMaxOutput}; the most the
 *                          gateway asks of it on its own behalf (a compaction's summary)
 * @param timeout           a whole call's time limit ({@code > 0}; a bare number is seconds)
 * @param firstTokenTimeout time limit until the first streamed byte ({@code > 0}; bare number: seconds)
 * @param maxConcurrent     calls in flight at most ({@code >= 1})
 * @param fallbacks         models to try, in order, when this one fails; empty = give up
 * @param breakerName       the {@code breakers} entry used, or empty for an inline map
 * @param breaker           the resolved breaker settings
 * @param retry             the top-level retry with this model's overrides applied
 * @param translate         what a request of another dialect may lose on its way to this model
 * @param price             what cost budgets count its calls at: {@code price} as written, else the
 *                          built-in table's; empty when neither knows it
 * @param deadline          a request's whole time across retries, waits and fallbacks (docs/design.md §13;
 *                          {@code > 0}, bare number: seconds); empty for none
 * @param hedge             when to start the next step of the chain beside a slow one; empty for never
 * @param streamIdleTimeout the longest silence allowed between two events of a stream once it runs
 *                          ({@code > 0}; bare number: seconds)
 * @param streamContinuation whether a text stream that breaks after its first byte is continued by the
 *                          next step of the chain in the same stream (docs/design.md §13), rather than ended
 *                          with an error
 * @param contextWindowConfigured whether the operator wrote {@code contextWindow}: a window of their own,
 *                          which a caller's request for a larger one ({@link LongContextBeta}) does not change
 * @param maxOutputTokensKnown whether {@code maxOutputTokens} is the model's own limit — the operator's
 *                          {@code maxOutputTokens}, or the table's for the model — rather than the default
 *                          of a model nobody described: then a caller's request is kept within it too
 *                          ({@link ModelOutputLimits#isKnown}), decided once, not per request
 */
public record ModelConfig(String name, String provider, String upstreamModel, int contextWindow, int maxOutputTokens,
                          Duration timeout, Duration firstTokenTimeout, int maxConcurrent,
                          List<String> fallbacks, Optional<String> breakerName, BreakerConfig breaker,
                          RetryConfig retry, Translate translate, Optional<ModelPrice> price,
                          Optional<Duration> deadline, Optional<HedgeConfig> hedge, Duration streamIdleTimeout,
                          boolean streamContinuation, boolean contextWindowConfigured, boolean maxOutputTokensKnown) {

    /**
     * How strictly a request of another dialect is translated for this model ({@code translate:}).
     * Fields with no effect on the answer are dropped and equivalents translated in both modes.
     */
    public enum Translate {
        /** A request that needs what this model's dialect has no equivalent for (a provider-run tool) skips this model. The default. */
        STRICT,
        /** Such tools and fields the gateway does not know are dropped, and named in {@code x-agentfuse-fallbacks}. */
        LENIENT
    }

    public ModelConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(upstreamModel, "upstreamModel");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout");
        fallbacks = List.copyOf(fallbacks);
        Objects.requireNonNull(breakerName, "breakerName");
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(translate, "translate");
        Objects.requireNonNull(price, "price");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(hedge, "hedge");
        Objects.requireNonNull(streamIdleTimeout, "streamIdleTimeout");
    }

    /**
     * The window of a model called {@code name} upstream as {@code upstreamModel} that the operator
     * wrote none for: the built-in table's ({@link ModelFamilies#publishedWindowOf}) for the upstream
     * name, else for the model's, else {@value ConfigDefaults#MODEL_CONTEXT_WINDOW} tokens. A configured
     * Claude Sonnet 5 got 200 000 of its 1 000 000, and the context ladder compacted or refused what
     * Anthropic would take; a name the table does not know (a self-hosted model) keeps the default.
     */
    public static int publishedWindow(String name, String upstreamModel) {
        return ModelFamilies.publishedWindowOf(upstreamModel).or(() -> ModelFamilies.publishedWindowOf(name))
                .orElse(ConfigDefaults.MODEL_CONTEXT_WINDOW);
    }

    /**
     * The output limit of a model called {@code name} upstream as {@code upstreamModel} that the
     * operator wrote no {@code maxOutputTokens} for: the built-in table's
     * ({@link ModelOutputLimits#publishedOf}) for the upstream name, else for the model's, else
     * {@value ModelOutputLimits#UNLISTED} tokens, which every chat model takes. A summary asked of
     * Claude Haiku 4.5 with {@code max_tokens} 84 300 was refused 400 (it writes at most 64 000), and
     * the context ladder snipped what it was to summarise.
     */
    public static int publishedMaxOutput(String name, String upstreamModel) {
        return ModelOutputLimits.publishedOf(upstreamModel).or(() -> ModelOutputLimits.publishedOf(name))
                .orElse(ModelOutputLimits.UNLISTED);
    }

    /**
     * {@code written}, the {@code price} an entry gave without cache prices, with its cached input priced
     * as the model's vendor prices it relative to the input price ({@link CachePrices#relativeTo}): an
     * entry that writes Claude Sonnet's $3/$15 pays Anthropic's $0.30 for a cache read, as Anthropic
     * bills it, not $3 (Claude Code reads nine tenths of its input from the cache).
     */
    public static ModelPrice writtenPrice(ModelPrice written, String name, String upstreamModel) {
        return CachePrices.relativeTo(written, listPrice(name, upstreamModel), upstreamModel);
    }

    /** The built-in table's price of a model called {@code name} upstream as {@code upstreamModel}. */
    public static Optional<ModelPrice> listPrice(String name, String upstreamModel) {
        Optional<ModelPrice> upstream = ModelFamilies.priceOf(upstreamModel);
        return upstream.isPresent() ? upstream : ModelFamilies.priceOf(name);
    }

    /**
     * This model with a window of {@code contextWindow} tokens for one request (a caller's
     * {@link LongContextBeta}); everything else as configured.
     */
    public ModelConfig withContextWindow(int contextWindow) {
        return new ModelConfig(name, provider, upstreamModel, contextWindow, maxOutputTokens, timeout, firstTokenTimeout, maxConcurrent,
                fallbacks, breakerName, breaker, retry, translate, price, deadline, hedge, streamIdleTimeout,
                streamContinuation, contextWindowConfigured, maxOutputTokensKnown);
    }

    /** The name of this model's breaker in registries and the admin API: {@code model:<name>}. */
    public String breakerId() {
        return "model:" + name;
    }
}
