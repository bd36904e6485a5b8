package io.agentfuse.gateway.dialect;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Locale;

/**
 * The fields of a provider's error body that say what was refused, as the providers write them:
 * {@code error.type}, {@code error.code} and {@code error.message} (OpenAI, Anthropic, Azure),
 * {@code error.status} (Google; also as the one element of an array, as Vertex sends some), and AWS's
 * {@code __type} and {@code message}; a string {@code error} is the message. A field that is absent or
 * not a string is {@code null}; a body that is not JSON has none. Read on failures only, never on the
 * answer path.
 *
 * <pre>{@code
 * ProviderErrorFields.of("{\"error\":{\"code\":\"model_not_found\",\"message\":\"...\"}}").code(); // "model_not_found"
 * }</pre>
 *
 * @param type    {@code error.type}, else AWS's {@code __type}
 * @param code    {@code error.code} when it is a string
 * @param status  {@code error.status} (Google's)
 * @param message {@code error.message} or a string {@code error}, else the top-level {@code message} or {@code Message}
 */
public record ProviderErrorFields(String type, String code, String status, String message) {

    /** The most of a body that is not a JSON error {@link #wordsOf} quotes. */
    public static final int MAX_WORDS_CHARS = 500;

    private static final ProviderErrorFields NONE = new ProviderErrorFields(null, null, null, null);

    /**
     * What a provider's error {@code body} says, for a caller to read: its {@link #message()}, else the
     * start of the body as it came (at most {@value #MAX_WORDS_CHARS} characters), else "no reason given".
     */
    public static String wordsOf(String body) {
        String message = of(body).message();
        if (message != null && !message.isBlank()) {
            return message;
        }
        String text = body == null ? "" : body.strip();
        if (text.isEmpty()) {
            return "no reason given";
        }
        return text.length() > MAX_WORDS_CHARS ? text.substring(0, MAX_WORDS_CHARS) + "…" : text;
    }

    /** The fields of {@code body} ({@code null} or not JSON: none). */
    public static ProviderErrorFields of(String body) {
        if (body == null || body.isBlank()) {
            return NONE;
        }
        try {
            Object value = Json.decodeValue(body);
            if (value instanceof JsonArray array && array.size() == 1) {
                value = array.getValue(0);
            }
            if (!(value instanceof JsonObject json)) {
                return NONE;
            }
            JsonObject error = json.getValue("error") instanceof JsonObject nested ? nested : new JsonObject();
            String message = orElse(string(error, "message"), string(json, "error"));
            return new ProviderErrorFields(orElse(string(error, "type"), string(json, "__type")), string(error, "code"),
                    string(error, "status"), orElse(message, orElse(string(json, "message"), string(json, "Message"))));
        } catch (DecodeException notJson) {
            return NONE;
        }
    }

    /** Whether the message is there and contains {@code words}, ignoring case. */
    public boolean messageHas(String words) {
        return message != null && message.toLowerCase(Locale.ROOT).contains(words.toLowerCase(Locale.ROOT));
    }

    private static String string(JsonObject json, String name) {
        return json.getValue(name) instanceof String text && !text.isBlank() ? text : null;
    }

    private static String orElse(String first, String second) {
        return first != null ? first : second;
    }
}
