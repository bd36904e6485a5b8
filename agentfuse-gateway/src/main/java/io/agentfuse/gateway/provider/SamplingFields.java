package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The sampling settings as the camel-cased APIs write them (Bedrock's {@code inferenceConfig},
 * Gemini's {@code generationConfig}): {@code temperature}, {@code topP}, {@code stopSequences} and
 * the output limit under the API's own name ({@code maxTokens}, {@code maxOutputTokens}); a setting
 * the caller did not give is left out. Stateless and thread-safe.
 */
public final class SamplingFields {

    private SamplingFields() {
    }

    /** The settings of {@code sampling}, the output limit named {@code maxTokensField}; empty when none is set. */
    public static JsonObject camelCase(Sampling sampling, String maxTokensField) {
        JsonObject config = new JsonObject();
        if (sampling.maxTokens() != null) {
            config.put(maxTokensField, sampling.maxTokens());
        }
        if (sampling.temperature() != null) {
            config.put("temperature", sampling.temperature());
        }
        if (sampling.topP() != null) {
            config.put("topP", sampling.topP());
        }
        if (!sampling.stopSequences().isEmpty()) {
            config.put("stopSequences", new JsonArray(sampling.stopSequences()));
        }
        return config;
    }
}
