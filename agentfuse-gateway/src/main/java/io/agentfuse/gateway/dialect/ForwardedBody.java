package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a same-dialect upstream body from the caller's own bytes: the top-level fields the
 * gateway left as they were are copied as received, only those it replaced or added are encoded.
 * Re-encoding a 150 KB conversation costs more than the rest of the gateway's work on it; copying
 * its bytes costs a scan.
 *
 * <p>Where each field lies is noted while the body is decoded ({@link StrictJson#decode(Buffer,
 * StrictJson.FieldSpans)}), so the bytes are not scanned again. They are used only when they are
 * sure to say what the parsed body says: one UTF-8 JSON object without a repeated key at any depth
 * (a provider might read a repeated key otherwise than the gateway did); otherwise there is no
 * {@code ForwardedBody} and the body is encoded from its parsed form.
 *
 * <p>A body whose fields all stay as received is forwarded as the very buffer received, without a copy.
 * A large one ({@value #SHARED_FROM_BYTES} bytes and more) with a field replaced shares the caller's
 * bytes too: it is written as pieces, the fields kept as views of the caller's buffer between the
 * few bytes encoded anew. A copy would cost its size again for every step of the chain that takes
 * the caller's dialect, planned before the first is sent: a Claude Code turn with a 5 MB screenshot
 * and a same-dialect fallback held 10 MB of copies besides the caller's own bytes.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
 * JsonObject received = (JsonObject) StrictJson.decode(raw, spans);
 * JsonObject patched = dialect.sameDialectRequest(ChatRequest.shallowCopy(received), "gpt-4o-mini-2024", false);
 * Buffer body = ForwardedBody.of(raw, spans).write(received, patched);
 * }</pre>
 */
public final class ForwardedBody {

    /**
     * The least body written in pieces that share the caller's bytes; a smaller one is copied whole,
     * which costs less than the pieces at its size and leaves one buffer to write.
     */
    static final int SHARED_FROM_BYTES = 64 * 1024;

    private final Buffer raw;
    private final StrictJson.FieldSpans spans;

    private ForwardedBody(Buffer raw, StrictJson.FieldSpans spans) {
        this.raw = raw;
        this.spans = spans;
    }

    /**
     * The caller's bytes {@code raw}, as {@link StrictJson#decode(Buffer, StrictJson.FieldSpans)}
     * decoded them into {@code spans}; {@code null} when they cannot be forwarded (not UTF-8, a key
     * repeated, not an object).
     */
    public static ForwardedBody of(Buffer raw, StrictJson.FieldSpans spans) {
        if (raw == null || spans == null || spans.repeatedKey() || spans.size() == 0 || !looksLikeUtf8(raw)) {
            return null;
        }
        return new ForwardedBody(raw, spans);
    }

    /**
     * {@code patched} written with the caller's bytes for every top-level field whose value is
     * still the very value of {@code received} (the body decoded from them; {@code patched} a
     * {@linkplain ChatRequest#shallowCopy shallow copy} of it with some fields replaced), or
     * {@code null} when {@code received} is not the body these bytes were decoded into; the
     * caller's buffer itself when no field was replaced. The result may share the caller's bytes:
     * neither is to be changed.
     */
    public Buffer write(JsonObject received, JsonObject patched) {
        Objects.requireNonNull(patched, "patched");
        if (received == null || received.size() != spans.size()) {
            return null;
        }
        if (unchanged(received, patched)) {
            return raw; // every field as received, in its order: the bytes say it all, and need no copy
        }
        Pieces out = new Pieces(raw.length() >= SHARED_FROM_BYTES);
        out.literal().appendByte((byte) '{');
        boolean first = true;
        // The underlying maps: reading through the objects would wrap every nested value anew.
        Map<String, Object> receivedFields = received.getMap();
        for (Map.Entry<String, Object> field : patched.getMap().entrySet()) {
            if (!first) {
                out.literal().appendByte((byte) ',');
            }
            first = false;
            long[] span = spans.of(field.getKey());
            if (span != null && receivedFields.get(field.getKey()) == field.getValue()) {
                int end = valueEnd(span[0], span[1]);
                out.caller((int) span[0], end - (int) span[0]);
            } else {
                appendName(out.literal(), field.getKey());
                out.literal().appendByte((byte) ':').appendString(Json.encode(field.getValue()));
            }
        }
        out.literal().appendByte((byte) '}');
        return out.written();
    }

    /**
     * Whether {@code patched} has the fields of {@code received} in the same order with the same
     * values: the very values, or equal strings, numbers or booleans (a model name replaced by
     * itself, as when a model's {@code upstreamModel} is its own name).
     */
    private static boolean unchanged(JsonObject received, JsonObject patched) {
        if (patched.size() != received.size()) {
            return false;
        }
        Iterator<Map.Entry<String, Object>> receivedFields = received.getMap().entrySet().iterator();
        for (Map.Entry<String, Object> field : patched.getMap().entrySet()) {
            Map.Entry<String, Object> original = receivedFields.next();
            if (!original.getKey().equals(field.getKey()) || !sameValue(original.getValue(), field.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameValue(Object received, Object patched) {
        if (received == patched) {
            return true;
        }
        boolean scalar = received instanceof String || received instanceof Boolean
                || received instanceof Integer || received instanceof Long;
        return scalar && received.equals(patched);
    }

    // A field name as a JSON string: the gateway's own names (stream_options, model) are printable
    // ASCII without a quote or backslash, written as they are; any other through the encoder.
    private static void appendName(Buffer out, String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                out.appendString(Json.encode(name));
                return;
            }
        }
        out.appendByte((byte) '"').appendString(name).appendByte((byte) '"');
    }

    // RFC 8259: JSON between systems is UTF-8; a UTF-16 or UTF-32 body has a zero among its first bytes.
    private static boolean looksLikeUtf8(Buffer raw) {
        int length = Math.min(raw.length(), 4);
        for (int i = 0; i < length; i++) {
            if (raw.getByte(i) == 0) {
                return false;
            }
        }
        return true;
    }

    // A field's value ends before the comma and white space that precede the next token.
    private int valueEnd(long start, long next) {
        int end = (int) next;
        while (end > start) {
            byte b = raw.getByte(end - 1);
            if (b == ',' || b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                end--;
            } else {
                break;
            }
        }
        return end;
    }

    /**
     * The body being written: one buffer the caller's bytes are copied into, or, when {@code shared},
     * a list of pieces where the caller's bytes are views of its buffer and only what is encoded
     * anew is a piece of its own.
     */
    private final class Pieces {
        private final List<ByteBuf> shared;
        private Buffer literal;

        Pieces(boolean share) {
            shared = share ? new ArrayList<>() : null;
            literal = Buffer.buffer(share ? 256 : raw.length() + 128);
        }

        /** Where bytes encoded anew go. */
        Buffer literal() {
            return literal;
        }

        /** Adds the caller's {@code length} bytes from {@code from}. */
        void caller(int from, int length) {
            if (shared == null) {
                literal.appendBuffer(raw, from, length);
                return;
            }
            endLiteral();
            shared.add(VertxHooks.byteBuf(raw).slice(from, length));
        }

        Buffer written() {
            if (shared == null) {
                return literal;
            }
            endLiteral();
            // As many components as pieces: a composite over its bound copies them all into one.
            return VertxHooks.buffer(Unpooled.wrappedBuffer(shared.size(), shared.toArray(ByteBuf[]::new)));
        }

        private void endLiteral() {
            if (literal.length() > 0) {
                shared.add(VertxHooks.byteBuf(literal));
                literal = Buffer.buffer(64);
            }
        }
    }
}
