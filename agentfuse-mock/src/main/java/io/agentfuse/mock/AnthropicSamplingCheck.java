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
        if (!(body.getValue("model") instanceof String model) || !model.startsWith("claude-") || TAKES_BOTH.matcher(model).matches()
                || body.getValue("temperature") == null || body.getValue("top_p") == null) {
            return null;
        }
        return "`temperature` and `top_p` cannot both be specified for this model. Please use only one.";
    }
}
