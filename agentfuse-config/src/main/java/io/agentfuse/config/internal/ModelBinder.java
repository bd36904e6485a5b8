package io.agentfuse.config.internal;

import io.agentfuse.config.BreakerConfig;
import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.HedgeConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ModelOutputLimits;
import io.agentfuse.config.ModelFamilies;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.config.RetryConfig;
import io.agentfuse.config.internal.Node.MapNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import io.agentfuse.core.budget.ModelPrice;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the {@code breakers:} and {@code models:} sections, resolving each model's provider,
 * fallbacks, breaker (a name under {@code breakers} or an inline map), retry (its own map
 * merged over the top-level {@code retry}), deadline and hedge ({@link HedgeBinder}); and adds the models of built-in families that the
 * configuration names without configuring them.
 */
final class ModelBinder {

    /** The highest price per million tokens a model may be given: far above any published one. */
    private static final BigDecimal MAX_PRICE = new BigDecimal("10000");

    private ModelBinder() {
    }

    /** The {@code breakers} entries, each over the model defaults; {@code default} is always there. */
    static Map<String, BreakerConfig> breakers(MapReader root) {
        var breakers = new LinkedHashMap<String, BreakerConfig>();
        breakers.put(ConfigDefaults.DEFAULT_BREAKER_NAME, ConfigDefaults.MODEL_BREAKER);
        root.namedSections("breakers").forEach((name, section) ->
                breakers.put(name, BreakerBinder.read(section, ConfigDefaults.MODEL_BREAKER)));
        return breakers;
    }

    static Map<String, ModelConfig> models(MapReader root, Map<String, ProviderConfig> providers,
                                           Map<String, BreakerConfig> breakers, RetryConfig retry,
                                           Set<String> modelNames) {
        var models = new LinkedHashMap<String, ModelConfig>();
        root.namedSections("models").forEach((name, section) -> {
            Optional<String> provider = provider(section, providers.keySet());
            String upstreamModel = section.string("upstreamModel", unwrittenUpstream(name, provider, providers));
            boolean contextWindowConfigured = section.find("contextWindow").isPresent();
            int contextWindow = section.integer("contextWindow", ModelConfig.publishedWindow(name, upstreamModel), 1,
                    Integer.MAX_VALUE);
            int maxOutputTokens = section.integer("maxOutputTokens", ModelConfig.publishedMaxOutput(name, upstreamModel), 1,
                    Integer.MAX_VALUE);
            Duration timeout = section.duration("timeout", ConfigDefaults.MODEL_TIMEOUT);
            Duration firstTokenTimeout = section.duration("firstTokenTimeout",
                    ConfigDefaults.MODEL_FIRST_TOKEN_TIMEOUT);
            int maxConcurrent = section.integer("maxConcurrent", ConfigDefaults.MODEL_MAX_CONCURRENT, 1,
                    Integer.MAX_VALUE);
            List<String> fallbacks = FallbackBinder.read(section, modelNames, Optional.of(name));
            Optional<String> breakerName = breakerName(section);
            BreakerConfig breaker = breaker(section, breakerName, breakers);
            RetryConfig modelRetry = RetryBinder.read(section.section("retry"), retry);
            ModelConfig.Translate translate = section.choice("translate", ConfigDefaults.MODEL_TRANSLATE);
            Optional<ModelPrice> price = price(section, name, upstreamModel);
            Optional<Duration> deadline = HedgeBinder.deadline(section);
            Optional<HedgeConfig> hedge = HedgeBinder.hedge(section, timeout, deadline);
            Duration streamIdleTimeout = section.duration("streamIdleTimeout", ConfigDefaults.MODEL_STREAM_IDLE_TIMEOUT);
            boolean streamContinuation = section.bool("streamContinuation", false);
            if (streamContinuation && fallbacks.isEmpty()) {
                // A key that could never act is refused rather than ignored.
                section.error("streamContinuation", "is true, but the model has no fallbacks: a stream that breaks"
                        + " is continued by the next step of its chain (add one under fallbacks)");
            }
            section.finish();
            provider.ifPresent(providerName -> models.put(name, new ModelConfig(name, providerName, upstreamModel,
                    contextWindow, maxOutputTokens, timeout, firstTokenTimeout, maxConcurrent, fallbacks, breakerName, breaker,
                    modelRetry, translate, price, deadline, hedge, streamIdleTimeout, streamContinuation,
                    contextWindowConfigured, ModelOutputLimits.isKnown(name, upstreamModel, section.find("maxOutputTokens").isPresent()))));
        });
        return models;
    }

    /**
     * {@code models} plus a model for each name in {@code references} that is not configured but
     * belongs to a built-in provider's family: that provider, the published context window, the
     * {@code default} breaker, the top-level retry and every other model default.
     */
    static Map<String, ModelConfig> withFamilyModels(Map<String, ModelConfig> models, Iterable<String> references,
                                                     Map<String, BreakerConfig> breakers, RetryConfig retry) {
        var all = new LinkedHashMap<>(models);
        for (String name : references) {
            if (all.containsKey(name)) {
                continue;
            }
            ModelFamilies.modelOf(name, breakers, retry).ifPresent(model -> all.put(name, model));
        }
        return all;
    }

    /**
     * {@code price: {input, output, cacheRead, cacheWrite, cacheWrite1h}} in USD per million tokens (the
     * cache's optional: without one, those tokens are counted at the next price told, as
     * {@link ModelPrice} says; without any, as the vendor prices cached input relative to the input
     * price, {@link ModelConfig#writtenPrice}), else the built-in table's.
     */
    private static Optional<ModelPrice> price(MapReader section, String name, String upstreamModel) {
        if (section.find("price").isEmpty()) {
            return ModelConfig.listPrice(name, upstreamModel);
        }
        MapReader price = section.section("price");
        Optional<BigDecimal> input = ExactDecimals.read(price, "input", BigDecimal.ZERO, MAX_PRICE);
        Optional<BigDecimal> output = ExactDecimals.read(price, "output", BigDecimal.ZERO, MAX_PRICE);
        Optional<BigDecimal> cacheRead = ExactDecimals.read(price, "cacheRead", BigDecimal.ZERO, MAX_PRICE);
        Optional<BigDecimal> cacheWrite = ExactDecimals.read(price, "cacheWrite", BigDecimal.ZERO, MAX_PRICE);
        Optional<BigDecimal> cacheWrite1h = ExactDecimals.read(price, "cacheWrite1h", BigDecimal.ZERO, MAX_PRICE);
        for (String key : new String[] {"input", "output"}) {
            if (price.find(key).isEmpty()) {
                price.error(key, "is required: USD per million " + key + " tokens, like 3.00");
            }
        }
        price.finish();
        if (input.isEmpty() || output.isEmpty()) {
            return ModelConfig.listPrice(name, upstreamModel);
        }
        ModelPrice written = new ModelPrice(input.get(), output.get());
        if (cacheRead.isEmpty() && cacheWrite.isEmpty() && cacheWrite1h.isEmpty()) {
            return Optional.of(ModelConfig.writtenPrice(written, name, upstreamModel));
        }
        return Optional.of(written.withCache(cacheRead.orElse(null), cacheWrite.orElse(null), cacheWrite1h.orElse(null)));
    }

    private static Optional<String> provider(MapReader section, Set<String> providers) {
        Optional<String> provider = section.requiredString("provider");
        if (provider.isPresent() && !providers.contains(provider.get())) {
            section.error("provider", ClosestMatch.unknown("provider", provider.get(), providers));
            return Optional.empty();
        }
        return provider;
    }

    /**
     * The upstream name of a model whose entry writes none: its key; for a model of Anthropic's own
     * API, the name Anthropic serves a line's name by ({@link ModelFamilies#servedNameOf}), so that the
     * seeds' {@code claude-haiku-4: { provider: anthropic }} calls Claude Haiku 4.5, not a model
     * Anthropic answers 404 for. A written {@code upstreamModel} is the operator's word, always.
     */
    private static String unwrittenUpstream(String name, Optional<String> provider, Map<String, ProviderConfig> providers) {
        boolean anthropic = provider.map(providers::get).map(settings -> settings.type() == ProviderConfig.Type.ANTHROPIC)
                .orElse(false);
        return anthropic ? ModelFamilies.servedNameOf(name) : name;
    }

    /** The name under {@code breakers}, or empty for an inline map. */
    private static Optional<String> breakerName(MapReader section) {
        Optional<Node> node = section.find("breaker");
        if (node.isEmpty()) {
            return Optional.of(ConfigDefaults.DEFAULT_BREAKER_NAME);
        }
        return node.get() instanceof ScalarNode scalar && !scalar.isNull()
                ? Optional.of(scalar.text()) : Optional.empty();
    }

    private static BreakerConfig breaker(MapReader section, Optional<String> name, Map<String, BreakerConfig> breakers) {
        Optional<Node> node = section.find("breaker");
        if (node.isPresent() && node.get() instanceof MapNode) {
            return BreakerBinder.read(section.section("breaker"), ConfigDefaults.MODEL_BREAKER);
        }
        if (name.isEmpty()) {
            section.error("breaker", "must be the name of a breakers entry or a map of breaker settings, but was "
                    + node.map(Node::describe).orElse("nothing"));
            return ConfigDefaults.MODEL_BREAKER;
        }
        BreakerConfig breaker = breakers.get(name.get());
        if (breaker == null) {
            section.error("breaker", ClosestMatch.unknown("breaker", name.get(), breakers.keySet()));
            return ConfigDefaults.MODEL_BREAKER;
        }
        return breaker;
    }
}
