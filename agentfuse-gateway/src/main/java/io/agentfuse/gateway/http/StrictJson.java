package io.agentfuse.gateway.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a request body in one pass, as {@code Json.decodeValue} does, and refuses in the same
 * pass what that accepts but must never reach a provider: a number too large for a double
 * ({@code "seed": 1e999} would be forwarded as {@code "Infinity"}). Trailing content after the
 * value is refused too.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * Object value = StrictJson.decode(ctx.body().buffer()); // JsonObject, JsonArray, String, Number, Boolean or null
 * }</pre>
 */
public final class StrictJson {

    private StrictJson() {
    }

    /**
     * The value of {@code body}.
     *
     * @throws DecodeException if it is not one well-formed JSON value with finite numbers only
     */
    public static Object decode(Buffer body) {
        try (JsonParser parser = JacksonCodec.createParser(body)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new DecodeException("no JSON value");
            }
            Object value = unwrap(parseAny(parser));
            if (parser.nextToken() != null) {
                throw new DecodeException("unexpected content after the JSON value");
            }
            return value;
        } catch (IOException e) {
            throw new DecodeException("Failed to decode:" + e.getMessage(), e);
        }
    }

    private static Object unwrap(Object value) {
        return value instanceof Map<?, ?> map ? new JsonObject(cast(map))
                : value instanceof List<?> list ? new JsonArray(list) : value;
    }

    private static Object parseAny(JsonParser parser) throws IOException {
        return switch (parser.currentToken()) {
            case START_OBJECT -> parseObject(parser);
            case START_ARRAY -> parseArray(parser);
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT -> parser.getNumberValue();
            case VALUE_NUMBER_FLOAT -> finite(parser);
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new DecodeException("unexpected token " + parser.currentToken());
        };
    }

    private static Double finite(JsonParser parser) throws IOException {
        double value = parser.getDoubleValue();
        if (!Double.isFinite(value)) {
            throw new DecodeException("the number " + parser.getText() + " at " + location(parser)
                    + " is too large for a double");
        }
        return value;
    }

    private static Map<String, Object> parseObject(JsonParser parser) throws IOException {
        Map<String, Object> object = new LinkedHashMap<>();
        String name;
        while ((name = parser.nextFieldName()) != null) {
            parser.nextToken();
            object.put(name, parseAny(parser));
        }
        if (parser.currentToken() != JsonToken.END_OBJECT) {
            throw new DecodeException("unexpected token " + parser.currentToken() + " in an object");
        }
        return object;
    }

    private static List<Object> parseArray(JsonParser parser) throws IOException {
        List<Object> array = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() == null) {
                throw new DecodeException("the array is not closed");
            }
            array.add(parseAny(parser));
        }
        return array;
    }

    private static String location(JsonParser parser) {
        return "line " + parser.currentLocation().getLineNr() + ", column " + parser.currentLocation().getColumnNr();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
