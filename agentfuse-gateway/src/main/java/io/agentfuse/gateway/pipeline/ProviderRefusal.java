package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.upstream.UpstreamStatusException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A provider's refusal of the caller's request (a 4xx passed on, neither retried nor fallen back
 * from) as the caller reads it. It comes as it was sent when the provider answers errors as the
 * caller's dialect does ({@link Dialect#errorFamily(String)}); otherwise it is re-written in the caller's
 * dialect ({@link Dialect#refusalBody}): the status kept, the type the caller's dialect gives it, the
 * provider's own message with the provider named — so that an Anthropic SDK behind a Gemini fallback
 * reads an Anthropic error, as LiteLLM answers every provider's error in one shape.
 *
 * <p>Stateless and thread-safe.
 */
final class ProviderRefusal {

    /** The most of a body that is not a JSON error the caller reads as its message. */
    static final int MAX_MESSAGE_CHARS = 500;

    private ProviderRefusal() {
    }

    /** Whether {@code caller}'s clients read {@code refusal} as it came. */
    static boolean readAsItCame(Dialect caller, UpstreamStatusException refusal) {
        return refusal.dialect().map(provider -> provider.errorFamily(refusal.body().orElse(""))
                .equals(caller.errorFamily())).orElse(true);
    }

    /** {@code refusal} in {@code caller}'s words. */
    static JsonObject rewritten(Dialect caller, UpstreamStatusException refusal) {
        String provider = refusal.provider().orElse("the provider");
        return caller.refusalBody(refusal.status(), "provider " + provider + " refused the request: "
                + messageOf(refusal.body().orElse("")));
    }

    /**
     * The message of a provider's error body: its {@code error.message} (OpenAI, Anthropic, Google,
     * also as the one element of an array, as Vertex sends some), a string {@code error}, or a
     * {@code message} / {@code Message} (AWS); otherwise the start of the body as it came.
     */
    static String messageOf(String body) {
        String text = body.strip();
        try {
            Object value = Json.decodeValue(text);
            if (value instanceof JsonArray array && array.size() == 1) {
                value = array.getValue(0);
            }
            if (value instanceof JsonObject json) {
                Object error = json.getValue("error");
                for (Object candidate : new Object[] {error instanceof JsonObject nested ? nested.getValue("message") : null,
                        error, json.getValue("message"), json.getValue("Message")}) {
                    if (candidate instanceof String message && !message.isBlank()) {
                        return message;
                    }
                }
            }
        } catch (DecodeException | ClassCastException notJson) {
            // the body's own words follow
        }
        if (text.isEmpty()) {
            return "no reason given";
        }
        return text.length() > MAX_MESSAGE_CHARS ? text.substring(0, MAX_MESSAGE_CHARS) + "…" : text;
    }
}
