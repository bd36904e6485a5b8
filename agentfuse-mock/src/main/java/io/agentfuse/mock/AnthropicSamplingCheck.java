package io.agentfuse.mock;

import io.vertx.core.json.JsonObject;

import java.util.regex.Pattern;

/**
 * What the Messages API refuses of a request's sampling: {@code temperature} and {@code top_p}
 * together, for Claude Opus 4.1, Sonnet 4.5, Haiku 4.5 and every later model, with Anthropic's own
 * 400 message (Bedrock's Converse API answers the same for them). The earlier models take both. The
 * mock keeps its own reading of which models, not the gateway's. Stateless.
 */
final class AnthropicSamplingCheck {

    /** The models that still take both: Claude 1 to 3.7, Sonnet 4 and Opus 4 (and their snapshots). */
    private static final Pattern TAKES_BOTH = Pattern.compile("claude-(instant|2|3)[-.].*|claude-(sonnet|opus)-4(-\\d{8})?");

    private AnthropicSamplingCheck() {
    }

    /** Anthropic's message when it refuses {@code body}'s sampling, or {@code null}. */
    static String problem(JsonObject body) {
        return body.getValue("model") instanceof String model ? problem(model, body.getValue("temperature"), body.getValue("top_p")) : null;
    }

    /**
     * The message when Claude {@code model} (Anthropic's name, or a cloud's: {@code us.anthropic.claude-…-v1:0})
     * refuses a {@code temperature} with a {@code topP}; {@code null} when it takes them.
     */
    static String problem(String model, Object temperature, Object topP) {
        int claude = model.indexOf("claude-");
        if (claude < 0 || temperature == null || topP == null) {
            return null;
        }
        String name = model.substring(claude).replaceFirst("-v\\d+(:\\d+)?$", "");
        return TAKES_BOTH.matcher(name).matches() ? null
                : "`temperature` and `top_p` cannot both be specified for this model. Please use only one.";
    }
}
