package io.agentfuse.mock;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.util.Map;

/**
 * Reads a provider request's body as the providers do: JSON by RFC 8259, without the comments
 * Vert.x's reader allows, and without a byte order mark before it (OpenAI, Anthropic, Gemini and
 * Bedrock answer either 400). A test of a gateway that forwarded either would pass against a mock
 * that read them. Stateless.
 */
final class MockJson {

    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private MockJson() {
    }

    /** {@code text} as a JSON object, or {@code null} when it is not one by RFC 8259 (a provider's 400). */
    static JsonObject object(String text) {
        if (text == null || text.isEmpty() || text.charAt(0) == BYTE_ORDER_MARK) {
            return null;
        }
        try (JsonParser parser = JacksonCodec.createParser(text)) {
            for (JsonReadFeature lenient : JsonReadFeature.values()) { // every one of them a leniency
                JsonParser.Feature feature = lenient.mappedFeature();
                if (feature != null && parser.isEnabled(feature)) {
                    parser.disable(feature);
                }
            }
            Object value = JacksonCodec.fromParser(parser, Object.class);
            if (value instanceof JsonObject object) {
                return object;
            }
            return value instanceof Map<?, ?> map ? new JsonObject(castMap(map)) : null;
        } catch (DecodeException | java.io.IOException notJson) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
