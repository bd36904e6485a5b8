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

    /**
     * {@code sampling} as a Claude model takes it: Claude Opus 4.1, Sonnet 4.5, Haiku 4.5 and every
     * later model refuse {@code temperature} and {@code top_p} together with 400 ("cannot both be
     * specified for this model"), directly and on Bedrock, and the earlier ones are told by
     * Anthropic to change only one; a caller of another API often sends both (LangChain's defaults
     * do). So with a temperature, a translated request to Claude carries no top-p.
     */
    public static Sampling forClaude(Sampling sampling) {
        return sampling.temperature() != null && sampling.topP() != null
                ? new Sampling(sampling.maxTokens(), sampling.temperature(), null, sampling.stopSequences()) : sampling;
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
