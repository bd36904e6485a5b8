package io.agentfuse.gateway.dialect;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a same-dialect upstream body from the caller's own bytes: the top-level fields the
 * gateway left as they were are copied as received, only those it replaced or added are encoded.
 * Re-encoding a 150 KB conversation costs more than the rest of the gateway's work on it; copying
 * its bytes costs a scan.
 *
 * <p>The bytes are used only when they are sure to say what the parsed body says: one UTF-8 JSON
 * object without a duplicate key at any depth (a provider might read a duplicate otherwise than
 * the gateway did). Otherwise {@link #write} answers {@code null} and the caller encodes the body.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * JsonObject patched = dialect.sameDialectRequest(ChatRequest.shallowCopy(received), "gpt-4o-mini-2024", false);
 * Buffer body = ForwardedBody.write(rawBody, received, patched);   // null: encode patched instead
 * }</pre>
 */
public final class ForwardedBody {

    private ForwardedBody() {
    }

    /**
     * {@code patched} written with the bytes of {@code raw} for every top-level field whose value
     * is still the very value of {@code received} (the body parsed from {@code raw}; {@code patched}
     * a {@linkplain ChatRequest#shallowCopy shallow copy} of it with some fields replaced), or
     * {@code null} when the bytes cannot be used.
     */
    public static Buffer write(Buffer raw, JsonObject received, JsonObject patched) {
        Objects.requireNonNull(patched, "patched");
        if (raw == null || received == null || !looksLikeUtf8Object(raw)) {
            return null;
        }
        Map<String, long[]> spans = spans(raw);
        if (spans == null || spans.size() != received.size()) {
            return null;
        }
        Buffer out = Buffer.buffer(raw.length() + 128).appendByte((byte) '{');
        boolean first = true;
        // The underlying maps: reading through the objects would wrap every nested value anew.
        Map<String, Object> receivedFields = received.getMap();
        for (Map.Entry<String, Object> field : patched.getMap().entrySet()) {
            if (!first) {
                out.appendByte((byte) ',');
            }
            first = false;
            long[] span = spans.get(field.getKey());
            if (span != null && receivedFields.get(field.getKey()) == field.getValue()) {
                out.appendBuffer(raw, (int) span[0], (int) (span[1] - span[0]));
            } else {
                out.appendString(Json.encode(field.getKey())).appendByte((byte) ':')
                        .appendString(Json.encode(field.getValue()));
            }
        }
        return out.appendByte((byte) '}');
    }

    // RFC 8259: JSON between systems is UTF-8; a UTF-16 or UTF-32 body has a zero among its first bytes.
    private static boolean looksLikeUtf8Object(Buffer raw) {
        int length = Math.min(raw.length(), 4);
        for (int i = 0; i < length; i++) {
            if (raw.getByte(i) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Each top-level field's bytes, from its name to the end of its value; {@code null} if unsure. */
    private static Map<String, long[]> spans(Buffer raw) {
        try (JsonParser parser = JacksonCodec.createParser(raw)) {
            parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Map<String, long[]> spans = new HashMap<>();
            String name = null;
            long start = -1;
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME || token == JsonToken.END_OBJECT) {
                long at = parser.currentTokenLocation().getByteOffset();
                if (name != null) {
                    spans.put(name, new long[] {start, valueEnd(raw, start, at)});
                }
                if (token == JsonToken.END_OBJECT) {
                    return parser.nextToken() == null ? spans : null;
                }
                name = parser.currentName();
                start = at;
                parser.nextToken();
                parser.skipChildren();
            }
            return null;
        } catch (IOException | RuntimeException unsure) {
            return null;
        }
    }

    // The value ends before the comma and white space that precede the next token.
    private static long valueEnd(Buffer raw, long start, long next) {
        long end = next;
        while (end > start) {
            byte b = raw.getByte((int) end - 1);
            if (b == ',' || b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                end--;
            } else {
                break;
            }
        }
        return end;
    }
}
