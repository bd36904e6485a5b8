package io.agentfuse.gateway.dialect;

import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.List;

/**
 * Keeps the output a request body asks for within what its step's model writes: the field of each
 * dialect that says how many tokens the answer may take — Chat Completions' {@code max_tokens} and
 * {@code max_completion_tokens}, Anthropic's {@code max_tokens}, the Responses API's
 * {@code max_output_tokens}, Gemini's {@code generationConfig.maxOutputTokens}, Bedrock's
 * {@code inferenceConfig.maxTokens} — lowered to the limit when it is above it, left alone otherwise
 * (and an Anthropic thinking budget with it, which must stay below {@code max_tokens}).
 * A provider refuses a request above its model's limit with 400, which ends the chain: a fallback to
 * a model that writes less must be asked for no more than it writes. Each body carries only its own
 * dialect's field, so one list serves every dialect.
 *
 * <p>The body's top level is changed in place (it is the step's own: written for the step, or a
 * shallow copy of the caller's); a nested object is replaced by a copy, never changed, since it may
 * be the caller's decoded value. Stateless.
 *
 * <pre>{@code
 * JsonObject body = DialectTranslator.upstreamRequest(chat, dialect, "gpt-4o-mini");
 * OutputTokenCap.apply(body, 16_384);   // {"max_completion_tokens": 32000} -> 16384
 * }</pre>
 */
public final class OutputTokenCap {

    private static final List<String> TOP_LEVEL = List.of("max_tokens", "max_completion_tokens", "max_output_tokens");
    /** Anthropic's least {@code thinking.budget_tokens}. */
    private static final long MIN_THINKING_BUDGET = 1_024;

    private OutputTokenCap() {
    }

    /** {@code body} with every output-size field of it at most {@code limit} ({@code >= 1}); the same object. */
    public static JsonObject apply(JsonObject body, int limit) {
        for (String field : TOP_LEVEL) {
            if (above(body.getValue(field), limit)) {
                body.put(field, limit);
            }
        }
        capNested(body, "generationConfig", "maxOutputTokens", limit);
        capNested(body, "inferenceConfig", "maxTokens", limit);
        fitThinking(body);
        return body;
    }

    /**
     * Anthropic's {@code thinking.budget_tokens} must stay below {@code max_tokens} (and be 1 024 or
     * more): a budget the lowered limit no longer leaves room for is lowered with it, and thinking that
     * cannot fit at all is left out rather than refused.
     */
    private static void fitThinking(JsonObject body) {
        if (!(body.getValue("thinking") instanceof JsonObject thinking && thinking.getValue("budget_tokens") instanceof Number budget
                && body.getValue("max_tokens") instanceof Number max) || budget.longValue() < max.longValue()) {
            return;
        }
        if (max.longValue() - 1 < MIN_THINKING_BUDGET) {
            body.remove("thinking");
        } else {
            body.put("thinking", new JsonObject(new LinkedHashMap<>(thinking.getMap())).put("budget_tokens", max.longValue() - 1));
        }
    }

    private static void capNested(JsonObject body, String object, String field, int limit) {
        if (body.getValue(object) instanceof JsonObject nested && above(nested.getValue(field), limit)) {
            body.put(object, new JsonObject(new LinkedHashMap<>(nested.getMap())).put(field, limit));
        }
    }

    private static boolean above(Object value, int limit) {
        return value instanceof Number number && number.doubleValue() > limit;
    }
}
