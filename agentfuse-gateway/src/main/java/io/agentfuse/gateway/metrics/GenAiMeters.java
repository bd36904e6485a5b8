package io.agentfuse.gateway.metrics;

import io.agentfuse.gateway.dialect.Usage;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The model-call meters of the OpenTelemetry GenAI semantic conventions (docs/design.md §9), one per call
 * to a provider:
 * <ul>
 *   <li>{@code gen_ai_client_operation_duration_seconds{gen_ai_operation_name, gen_ai_provider_name,
 *       gen_ai_request_model, error_type}} — how long each call took (a stream: to its end);
 *       {@code error_type} is {@code none} for a call that answered;</li>
 *   <li>{@code gen_ai_server_time_to_first_token_seconds{...}} — for streams, until the first event;</li>
 *   <li>{@code gen_ai_client_token_usage{..., gen_ai_token_type, type}} — the tokens a call's
 *       answer reported, {@code input} and {@code output}; the value twice, under the
 *       conventions' name and under docs/design.md §9's {@code type}, so that queries written to either
 *       find the one series.</li>
 * </ul>
 * The provider is the configured provider's name, the model the upstream model; both are bounded
 * by the configuration. Thread-safe.
 */
final class GenAiMeters {

    private static final String OPERATION = "chat";

    private final MeterRegistry registry;
    /** By provider, then upstream model: one lookup each per call instead of a key list per meter. */
    private final Map<String, Map<String, ModelCalls>> calls = new ConcurrentHashMap<>();

    GenAiMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** One call, and the tokens its answer reported ({@code usage}; {@code null} or all zero when none). */
    void call(String provider, String model, long durationNanos, String errorType, Usage usage) {
        ModelCalls meters = calls(provider, model);
        meters.duration(errorType).record(durationNanos, TimeUnit.NANOSECONDS);
        if (usage != null && usage.total() != 0) {
            meters.input.record(usage.inputTokens());
            meters.output.record(usage.outputTokens());
        }
    }

    void firstToken(String provider, String model, long durationNanos) {
        calls(provider, model).firstToken.record(durationNanos, TimeUnit.NANOSECONDS);
    }

    /** Drops the cached meters of {@code provider}'s {@code model}; whoever calls this removes them from the registry. */
    void forget(String provider, String model) {
        Map<String, ModelCalls> ofProvider = calls.get(provider);
        if (ofProvider != null) {
            ofProvider.remove(model);
        }
    }

    private ModelCalls calls(String provider, String model) {
        Map<String, ModelCalls> ofProvider = calls.get(provider);
        if (ofProvider == null) {
            ofProvider = calls.computeIfAbsent(provider, ignored -> new ConcurrentHashMap<>());
        }
        ModelCalls meters = ofProvider.get(model);
        return meters != null ? meters : ofProvider.computeIfAbsent(model, ignored -> new ModelCalls(provider, model));
    }

    /** The meters of the calls to one provider for one upstream model. */
    private final class ModelCalls {
        private final String provider;
        private final String model;
        private final Map<String, Timer> durations = new ConcurrentHashMap<>();
        private final Timer firstToken;
        private final DistributionSummary input;
        private final DistributionSummary output;

        ModelCalls(String provider, String model) {
            this.provider = provider;
            this.model = model;
            this.firstToken = Timer.builder("gen_ai.server.time_to_first_token").description("Time to the first event of a stream")
                    .tags("gen_ai.operation.name", OPERATION, "gen_ai.provider.name", provider, "gen_ai.request.model", model)
                    .register(registry);
            this.input = tokens("input");
            this.output = tokens("output");
        }

        Timer duration(String errorType) {
            Timer timer = durations.get(errorType);
            return timer != null ? timer : durations.computeIfAbsent(errorType, type ->
                    Timer.builder("gen_ai.client.operation.duration").description("Duration of model calls")
                            .tags("gen_ai.operation.name", OPERATION, "gen_ai.provider.name", provider,
                                    "gen_ai.request.model", model, "error.type", type)
                            .register(registry));
        }

        private DistributionSummary tokens(String type) {
            return DistributionSummary.builder("gen_ai.client.token.usage").description("Tokens used by model calls")
                    .tags("gen_ai.operation.name", OPERATION, "gen_ai.provider.name", provider,
                            "gen_ai.request.model", model, "gen_ai.token.type", type, "type", type)
                    .register(registry);
        }
    }
}
