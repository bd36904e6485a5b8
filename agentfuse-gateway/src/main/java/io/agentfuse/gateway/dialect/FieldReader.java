package io.agentfuse.gateway.dialect;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Typed, validated access to the fields of one JSON object of a request, failing with an
 * {@link InvalidRequestException} whose message names the field's full path
 * ({@code messages[2].content}) and the bad value.
 *
 * <p>Immutable view over a JSON object; not meant to outlive the parse it serves.
 *
 * <pre>{@code
 * FieldReader root = FieldReader.root(body);
 * String model = root.requiredString("model");
 * FieldReader first = root.objectAt("messages", 0);
 * }</pre>
 */
public final class FieldReader {

    private static final int NOT_AN_ELEMENT = -1;

    private final JsonObject json;
    // The path is written only for an error message: a 150 KB conversation has thousands of readers.
    private final FieldReader parent;
    private final String field;
    private final int index;

    private FieldReader(JsonObject json, FieldReader parent, String field, int index) {
        this.json = json;
        this.parent = parent;
        this.field = field;
        this.index = index;
    }

    /** A reader over the request body. */
    public static FieldReader root(JsonObject body) {
        return new FieldReader(body, null, null, NOT_AN_ELEMENT);
    }

    /** The full path of {@code field} of this object. */
    public String path(String field) {
        return parent == null ? field : ownPath() + "." + field;
    }

    private String ownPath() {
        String own = parent.path(field);
        return index == NOT_AN_ELEMENT ? own : own + "[" + index + "]";
    }

    /** Whether {@code field} is present and not {@code null}. */
    public boolean has(String field) {
        return value(field) != null;
    }

    /** The raw value of {@code field}, or {@code null}. */
    public Object value(String field) {
        return plain(json.getMap().get(field), json, field);
    }

    /**
     * {@code raw} as {@link JsonObject#getValue} would answer it, without its wrapping checks for
     * the values a decoded body holds (decoded objects and arrays are wrapped once, at decode).
     */
    private static Object plain(Object raw, JsonObject object, String field) {
        if (raw == null || raw instanceof String || raw instanceof JsonObject || raw instanceof JsonArray
                || raw instanceof Number || raw instanceof Boolean) {
            return raw;
        }
        return object.getValue(field);
    }

    /**
     * The fields of this object that are not in {@code known}, as "{@code path} (a field the gateway
     * does not know)" — reasons for {@link ChatRequest#untranslatable()}: providers add fields every
     * month, and within one dialect they pass through unchanged. Empty and unmodifiable when
     * every field is known (most requests: nothing is allocated for them).
     */
    public List<String> unknownFields(Set<String> known) {
        List<String> unknown = null;
        for (String field : json.getMap().keySet()) {
            if (!known.contains(field)) {
                if (unknown == null) {
                    unknown = new ArrayList<>();
                }
                unknown.add(path(field) + " (a field the gateway does not know)");
            }
        }
        return unknown == null ? List.of() : unknown;
    }

    public String requiredString(String field) {
        String value = optionalString(field);
        if (value == null) {
            throw invalid(path(field), path(field) + " is required");
        }
        return value;
    }

    public String optionalString(String field) {
        Object value = value(field);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw wrongType(field, "a string", value);
    }

    public Boolean optionalBoolean(String field) {
        Object value = value(field);
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        throw wrongType(field, "a boolean", value);
    }

    /** An integer {@code >= min}, or {@code null}. */
    public Integer optionalInt(String field, int min) {
        Object value = value(field);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())
                || Math.abs(number.doubleValue()) > Integer.MAX_VALUE) {
            throw wrongType(field, "an integer", value);
        }
        if (number.intValue() < min) {
            throw invalid(path(field), path(field) + " must be >= " + min + ", but was " + value);
        }
        return number.intValue();
    }

    /** A number in {@code [min, max]}, or {@code null}. */
    public Double optionalNumber(String field, double min, double max) {
        Object value = value(field);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number number)) {
            throw wrongType(field, "a number", value);
        }
        double d = number.doubleValue();
        if (d < min || d > max) {
            throw invalid(path(field), path(field) + " must be between " + min + " and " + max + ", but was " + value);
        }
        return d;
    }

    public JsonArray requiredArray(String field) {
        JsonArray value = optionalArray(field);
        if (value == null) {
            throw invalid(path(field), path(field) + " is required");
        }
        return value;
    }

    public JsonArray optionalArray(String field) {
        Object value = value(field);
        if (value == null || value instanceof JsonArray) {
            return (JsonArray) value;
        }
        throw wrongType(field, "an array", value);
    }

    /** The object in {@code field}, or {@code null}. */
    public FieldReader optionalObject(String field) {
        Object value = value(field);
        if (value == null) {
            return null;
        }
        if (value instanceof JsonObject object) {
            return new FieldReader(object, this, field, NOT_AN_ELEMENT);
        }
        throw wrongType(field, "an object", value);
    }

    public FieldReader requiredObject(String field) {
        FieldReader value = optionalObject(field);
        if (value == null) {
            throw invalid(path(field), path(field) + " is required");
        }
        return value;
    }

    /** Element {@code index} of array {@code field}, which must be an object. */
    public FieldReader objectAt(String field, int index) {
        Object element = json.getJsonArray(field).getValue(index);
        if (element instanceof JsonObject object) {
            return new FieldReader(object, this, field, index);
        }
        String elementPath = path(field) + "[" + index + "]";
        throw invalid(elementPath, elementPath + " must be an object, but was " + describe(element));
    }

    /** Array {@code field} as strings, or a single string as a one-element list; empty when absent. Not to be changed. */
    public List<String> stringOrStrings(String field) {
        Object value = value(field);
        if (value == null) {
            return List.of();
        }
        if (value instanceof String s) {
            return List.of(s);
        }
        if (!(value instanceof JsonArray array)) {
            throw wrongType(field, "a string or an array of strings", value);
        }
        List<String> strings = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            if (!(array.getValue(i) instanceof String s)) {
                throw invalid(path(field) + "[" + i + "]", path(field) + "[" + i + "] must be a string, but was "
                        + describe(array.getValue(i)));
            }
            strings.add(s);
        }
        return strings;
    }

    /** The object itself. */
    public JsonObject json() {
        return json;
    }

    /** An error about {@code field} of this object: its path followed by {@code problem}. */
    public InvalidRequestException problem(String field, String problem) {
        return new InvalidRequestException(path(field), path(field) + " " + problem);
    }

    private InvalidRequestException wrongType(String field, String expected, Object value) {
        return invalid(path(field), path(field) + " must be " + expected + ", but was " + describe(value));
    }

    private static InvalidRequestException invalid(String param, String message) {
        return new InvalidRequestException(param, message);
    }

    private static String describe(Object value) {
        if (value instanceof String s) {
            return "\"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\"";
        }
        String text = String.valueOf(value);
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}
