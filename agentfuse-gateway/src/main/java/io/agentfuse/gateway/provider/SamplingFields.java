package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The sampling settings as the provider APIs write them: {@code temperature} everywhere, top-p and the
 * stop sequences under each API's names ({@code top_p}/{@code stop} for OpenAI,
 * {@code top_p}/{@code stop_sequences} for Anthropic, {@code topP}/{@code stopSequences} for the
 * camel-cased Bedrock {@code inferenceConfig} and Gemini {@code generationConfig}, whose output limit
 * goes in the same object under its own name); a setting the caller did not give is left out.
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * SamplingFields.put(body, request.sampling(), "top_p", "stop_sequences");
 * }</pre>
 */
public final class SamplingFields {

    private SamplingFields() {
    }

    /**
     * Puts the temperature, top-p (as {@code topPField}) and stop sequences (as {@code stopField}) of
     * {@code sampling} that are set into {@code target}; returns {@code target}.
     */
    public static JsonObject put(JsonObject target, Sampling sampling, String topPField, String stopField) {
        if (sampling.temperature() != null) {
            target.put("temperature", sampling.temperature());
        }
        if (sampling.topP() != null) {
            target.put(topPField, sampling.topP());
        }
        if (!sampling.stopSequences().isEmpty()) {
            target.put(stopField, new JsonArray(sampling.stopSequences()));
        }
        return target;
    }

    /** The settings of {@code sampling} camel-cased, the output limit named {@code maxTokensField}; empty when none is set. */
    public static JsonObject camelCase(Sampling sampling, String maxTokensField) {
        JsonObject config = new JsonObject();
        if (sampling.maxTokens() != null) {
            config.put(maxTokensField, sampling.maxTokens());
        }
        return put(config, sampling, "topP", "stopSequences");
    }
}
