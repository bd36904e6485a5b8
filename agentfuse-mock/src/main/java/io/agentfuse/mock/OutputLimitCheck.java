package io.agentfuse.mock;

import io.vertx.core.json.JsonObject;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The output limits of real models, which their providers enforce: a {@code max_tokens} above the
 * model's published maximum output is refused with 400 before the model runs. Anthropic answers
 * {@code invalid_request_error} "max_tokens: 84300 > 64000, which is the maximum allowed number of
 * output tokens for claude-haiku-4-5-20251001"; OpenAI's Chat Completions {@code invalid_request_error},
 * param {@code max_tokens}, code {@code invalid_value}, "max_tokens is too large: 56072. This model
 * supports at most 16384 completion tokens, whereas you provided 56072." — the mock words a
 * {@code max_completion_tokens} and the Responses API's {@code max_output_tokens} the same way, naming
 * the field sent. An explicit list of the models' names and their dated snapshots, not a rule, as
 * {@link AnthropicModelCheck}'s: the tests name many models no vendor has, which the mock serves as
 * stand-ins for any model and does not limit. Sources: Anthropic's models overview ("Max output"),
 * OpenAI's model pages ("Max output tokens"). Kept apart from the gateway's table so that it catches a
 * gateway that asks for more than the provider allows. Stateless.
 */
final class OutputLimitCheck {

    private static final Map<String, Integer> LIMITS = Map.ofEntries(
            Map.entry("claude-haiku-4-5", 64_000),
            Map.entry("claude-sonnet-4-5", 64_000),
            Map.entry("claude-opus-4-5", 64_000),
            Map.entry("claude-sonnet-4-6", 64_000),
            Map.entry("claude-opus-4-1", 32_000),
            Map.entry("claude-3-5-haiku", 8_192),
            Map.entry("claude-3-haiku", 4_096),
            Map.entry("gpt-4o", 16_384),
            Map.entry("gpt-4o-mini", 16_384),
            Map.entry("gpt-4.1", 32_768),
            Map.entry("gpt-4.1-mini", 32_768),
            Map.entry("gpt-4.1-nano", 32_768),
            Map.entry("o3", 100_000),
            Map.entry("o4-mini", 100_000));

    /** What follows a model's name in one of its dated snapshots. */
    private static final Pattern SNAPSHOT = Pattern.compile("-(\\d{8}|\\d{4}-\\d{2}-\\d{2})");

    private OutputLimitCheck() {
    }

    /** Anthropic's message for a {@code max_tokens} above the model's limit, or {@code null}. */
    static String anthropic(JsonObject body) {
        String model = body.getValue("model") instanceof String name ? name : null;
        Integer limit = limitOf(model);
        if (limit == null || !(body.getValue("max_tokens") instanceof Number asked) || asked.longValue() <= limit) {
            return null;
        }
        return "max_tokens: " + asked.longValue() + " > " + limit + ", which is the maximum allowed number of output"
                + " tokens for " + model;
    }

    /**
     * OpenAI's refusal of an output limit above the model's, in the first of {@code fields} the body
     * holds: the message and the field it names (the error's {@code param}); {@code null} when none is over.
     */
    static Problem openAi(JsonObject body, String... fields) {
        Integer limit = limitOf(body.getValue("model") instanceof String name ? name : null);
        if (limit == null) {
            return null;
        }
        for (String field : fields) {
            if (body.getValue(field) instanceof Number asked) {
                return asked.longValue() <= limit ? null : new Problem(field + " is too large: " + asked.longValue()
                        + ". This model supports at most " + limit + " completion tokens, whereas you provided "
                        + asked.longValue() + ".", field);
            }
        }
        return null;
    }

    private static Integer limitOf(String model) {
        if (model == null) {
            return null;
        }
        String name = model.toLowerCase(Locale.ROOT);
        Integer exact = LIMITS.get(name);
        if (exact != null) {
            return exact;
        }
        var snapshot = SNAPSHOT.matcher(name);
        return snapshot.find() && snapshot.end() == name.length() ? LIMITS.get(name.substring(0, snapshot.start())) : null;
    }

    /** An OpenAI refusal: its message and its {@code param}. */
    record Problem(String message, String param) {
    }
}
