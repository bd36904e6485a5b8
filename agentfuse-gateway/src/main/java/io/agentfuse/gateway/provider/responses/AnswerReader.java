package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Typed access to one JSON object of an upstream answer, failing with a
 * {@link MalformedAnswerException} that names the field's full path and the bad value — the
 * answer-side twin of the request-side {@code FieldReader}, which reports the caller's mistakes
 * as {@code invalid_request} instead.
 *
 * <p>Immutable view; not meant to outlive the read it serves.
 */
final class AnswerReader {

    private final JsonObject json;
    private final String path;

    private AnswerReader(JsonObject json, String path) {
        this.json = json;
        this.path = path;
    }

    /** A reader over a whole answer or event. */
    static AnswerReader root(JsonObject json) {
        return new AnswerReader(json, "");
    }

    String path(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    boolean has(String field) {
        return json.getValue(field) != null;
    }

    JsonObject json() {
        return json;
    }

    String string(String field) {
        String value = optionalString(field);
        if (value == null) {
            throw missing(field);
        }
        return value;
    }

    String optionalString(String field) {
        Object value = json.getValue(field);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw wrongType(field, "a string", value);
    }

    /** A whole number {@code >= 0}; {@code 0} when absent. */
    long count(String field) {
        Object value = json.getValue(field);
        if (value == null) {
            return 0;
        }
        if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())
                && number.doubleValue() >= 0 && number.doubleValue() <= Long.MAX_VALUE) {
            return number.longValue();
        }
        throw wrongType(field, "a whole number >= 0", value);
    }

    /**
     * A count of tokens: a number {@code >= 0}, read as every dialect reads one ({@link Usage#count}:
     * its whole part, {@link Long#MAX_VALUE} past a {@code long}'s range); {@code 0} when absent.
     */
    long tokens(String field) {
        Object value = json.getValue(field);
        if (value == null) {
            return 0;
        }
        if (value instanceof Number number && number.doubleValue() >= 0) {
            return Usage.count(number);
        }
        throw wrongType(field, "a number >= 0", value);
    }

    AnswerReader object(String field) {
        AnswerReader value = optionalObject(field);
        if (value == null) {
            throw missing(field);
        }
        return value;
    }

    AnswerReader optionalObject(String field) {
        Object value = json.getValue(field);
        if (value == null) {
            return null;
        }
        if (value instanceof JsonObject object) {
            return new AnswerReader(object, path(field));
        }
        throw wrongType(field, "an object", value);
    }

    JsonArray array(String field) {
        Object value = json.getValue(field);
        if (value instanceof JsonArray array) {
            return array;
        }
        if (value == null) {
            throw missing(field);
        }
        throw wrongType(field, "an array", value);
    }

    /** Element {@code index} of array {@code field}, which must be an object. */
    AnswerReader objectAt(String field, int index) {
        Object element = array(field).getValue(index);
        String elementPath = path(field) + "[" + index + "]";
        if (element instanceof JsonObject object) {
            return new AnswerReader(object, elementPath);
        }
        throw new MalformedAnswerException(elementPath + " must be an object, but was " + describe(element));
    }

    MalformedAnswerException problem(String field, String problem) {
        return new MalformedAnswerException(path(field) + " " + problem);
    }

    private MalformedAnswerException missing(String field) {
        return new MalformedAnswerException(path(field) + " is missing");
    }

    private MalformedAnswerException wrongType(String field, String expected, Object value) {
        return new MalformedAnswerException(path(field) + " must be " + expected + ", but was " + describe(value));
    }

    /** A value as it appeared in the JSON, shortened. */
    static String describe(Object value) {
        String text;
        if (value instanceof String s) {
            text = "\"" + s + "\"";
        } else if (value instanceof JsonObject) {
            text = "an object";
        } else if (value instanceof JsonArray) {
            text = "an array";
        } else {
            text = String.valueOf(value);
        }
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}
