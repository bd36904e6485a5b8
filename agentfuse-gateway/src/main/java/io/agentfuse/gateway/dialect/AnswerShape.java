package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.http.JsonShape;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Checks the shape of a provider's JSON answer, field by field, and says in words what is wrong
 * ({@code "choices[0].message.content must be a string or null, but was a number"}) — for the
 * dialects' {@link Dialect#checkAnswer} and their stream decoders.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * JsonObject answer = AnswerShape.object(body);
 * JsonArray choices = AnswerShape.requiredArray(answer, "choices", "");
 * }</pre>
 */
public final class AnswerShape {

    /** The most characters of a text {@link #excerpt} shows. */
    static final int EXCERPT_CHARS = 60;
    /** What {@code \s} matches in a regular expression: each run of it is one space in an excerpt. */
    private static final String WHITE_SPACE = " \t\n\u000B\f\r";

    private AnswerShape() {
    }

    /**
     * {@code body} as a JSON object.
     *
     * @throws MalformedAnswerException when it is empty, not JSON (or cut short), or not an object
     */
    public static JsonObject object(Buffer body) {
        if (body == null || body.length() == 0) {
            throw new MalformedAnswerException("the answer is empty");
        }
        Object value;
        try {
            value = Json.decodeValue(body);
        } catch (DecodeException e) {
            throw new MalformedAnswerException("the answer is not JSON, or cut short: " + excerpt(body.toString()));
        }
        if (!(value instanceof JsonObject object)) {
            throw new MalformedAnswerException("the answer is " + kind(value) + ", not a JSON object");
        }
        return object;
    }

    /**
     * {@code body}, if it has {@code shape}: every field the shape lists is of its kind, a required
     * one present and not null, an array that must not be empty is not (fields it does not list are
     * not looked at). The same field list is what the dialect's one-pass scan reads
     * ({@link io.agentfuse.gateway.http.ShapeScan}), so the two checks cannot drift apart.
     *
     * @throws MalformedAnswerException naming the first field, depth first in the shape's order, that is
     *                                  missing or of the wrong kind
     */
    public static JsonObject check(JsonObject body, JsonShape.Obj shape) {
        checkObject(body, shape, "");
        return body;
    }

    private static void checkObject(JsonObject json, JsonShape.Obj shape, String path) {
        for (JsonShape.Field field : shape.fields()) {
            Object value = json.getValue(field.name());
            if (value != null) {
                checkValue(value, field.shape(), path + field.name(), field.required());
            } else if (field.required()) {
                throw wrong(path + field.name(), expected(field.shape(), true), null);
            }
        }
    }

    private static void checkValue(Object value, JsonShape shape, String at, boolean required) {
        if (shape instanceof JsonShape.Obj object) {
            if (!(value instanceof JsonObject json)) {
                throw wrong(at, expected(shape, required), value);
            }
            checkObject(json, object, at + ".");
        } else if (shape instanceof JsonShape.Arr array) {
            if (!(value instanceof JsonArray elements)) {
                throw wrong(at, expected(shape, required), value);
            }
            if (elements.isEmpty() && array.emptyMeans() != null) {
                throw new MalformedAnswerException(at + " is empty: " + array.emptyMeans());
            }
            for (int i = 0; i < elements.size(); i++) {
                Object element = elements.getValue(i);
                String elementAt = at + "[" + i + "]";
                if (element == null) {
                    throw wrong(elementAt, expected(array.element(), true), null);
                }
                checkValue(element, array.element(), elementAt, true);
            }
        } else if (shape == JsonShape.Leaf.STRING && !(value instanceof String)
                || shape == JsonShape.Leaf.NUMBER && !(value instanceof Number)) {
            throw wrong(at, expected(shape, required), value);
        }
    }

    /** What a value of {@code shape} must be, in words: "an object", "a string or null". */
    private static String expected(JsonShape shape, boolean required) {
        String kind = shape instanceof JsonShape.Obj ? "an object" : shape instanceof JsonShape.Arr ? "an array"
                : shape == JsonShape.Leaf.STRING ? "a string" : shape == JsonShape.Leaf.NUMBER ? "a number" : "a value";
        // An array's absence is told as the array's: "choices must be an array, but was missing or null".
        return required || shape instanceof JsonShape.Arr ? kind : kind + " or null";
    }

    /** Field {@code field} of {@code json}, which must be an array (at {@code path}). */
    public static JsonArray requiredArray(JsonObject json, String field, String path) {
        Object value = json.getValue(field);
        if (value instanceof JsonArray array) {
            return array;
        }
        throw wrong(path + field, "an array", value);
    }

    /** Field {@code field} of {@code json}: an object, or absent/null when not {@code required}. */
    public static JsonObject object(JsonObject json, String field, String path, boolean required) {
        Object value = json.getValue(field);
        if (value instanceof JsonObject object || (!required && value == null)) {
            return (JsonObject) value;
        }
        throw wrong(path + field, required ? "an object" : "an object or null", value);
    }

    /** Element {@code index} of {@code array}, which must be an object. */
    public static JsonObject objectAt(JsonArray array, int index, String path) {
        Object value = array.getValue(index);
        if (value instanceof JsonObject object) {
            return object;
        }
        throw wrong(path + "[" + index + "]", "an object", value);
    }

    /** Field {@code field} of {@code json}: a string, or absent/null when not {@code required}. */
    public static String string(JsonObject json, String field, String path, boolean required) {
        Object value = json.getValue(field);
        if (value instanceof String text || (!required && value == null)) {
            return (String) value;
        }
        throw wrong(path + field, required ? "a string" : "a string or null", value);
    }

    /** Checks that field {@code field} of {@code json} is a number, or absent/null. */
    public static void optionalNumber(JsonObject json, String field, String path) {
        Object value = json.getValue(field);
        if (value != null && !(value instanceof Number)) {
            throw wrong(path + field, "a number or null", value);
        }
    }

    /**
     * A value a caller sent (a header, a query parameter, a name), for the message of its refusal:
     * {@link #excerpt} of it, and its length when that was cut, so that a value of kilobytes is never
     * sent back whole (an answer as large as the request, written into every log that keeps answers).
     */
    public static String quoted(String value) {
        String shown = excerpt(value);
        return shown.endsWith("…'") ? shown + " (" + value.length() + " characters)" : shown;
    }

    /**
     * The start of {@code text}, for a message: at most 60 characters, on one line (each run of white
     * space one space), quoted. Reads only as far as it shows: the text may be a provider's body of
     * megabytes, or a name a caller made up.
     */
    public static String excerpt(String text) {
        StringBuilder line = new StringBuilder(EXCERPT_CHARS + 1);
        boolean space = false;
        boolean more = false; // something visible follows what is shown
        for (int i = 0; i < text.length() && !more; i++) {
            char c = text.charAt(i);
            if (WHITE_SPACE.indexOf(c) >= 0) {
                space = line.length() > 0;
            } else if (line.length() >= EXCERPT_CHARS) {
                more = c > ' ';
            } else if (line.length() > 0 || c > ' ') { // as trim() would, nothing at or below a space leads
                if (space) {
                    line.append(' ');
                    space = false;
                }
                line.append(c);
            }
        }
        for (int k = EXCERPT_CHARS; k < line.length() && !more; k++) {
            more = line.charAt(k) > ' '; // the last append may pass the limit; control chars alone end nothing
        }
        String shown = more ? line.substring(0, EXCERPT_CHARS) + "…" : line.toString().trim();
        return shown.isEmpty() ? "(blank)" : "'" + shown + "'";
    }

    private static MalformedAnswerException wrong(String path, String expected, Object value) {
        return new MalformedAnswerException(path + " must be " + expected + ", but was " + kind(value));
    }

    /** The JSON kind of {@code value} in words. */
    public static String kind(Object value) {
        if (value == null) {
            return "missing or null";
        }
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Number) {
            return "a number";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        return value instanceof JsonArray ? "an array" : "an object";
    }
}
