package io.agentfuse.gateway.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a long body's top-level object value by value, taking from a {@link ValueMemo} every
 * value it has decoded before: each top-level field's value, and each element of a top-level
 * array (an agent's conversation grows by a few messages a turn, so the array is new but its
 * elements are not). What it does not find is decoded by {@link StrictJson}, with the same
 * parser and checks, and remembered.
 *
 * <p>The result is the one {@link StrictJson#decode(Buffer, StrictJson.FieldSpans)} gives, spans
 * and repeated keys included, or {@code null} for anything off its narrow path — a key with an
 * escape or non-ASCII char, malformed JSON, trailing content — which the caller then decodes the
 * ordinary way, so that every error is reported by one decoder in one wording.
 *
 * <p>Not thread-safe: one instance per body.
 */
final class MemoizedDecoder {

    /** Short plain strings are read here; longer ones go to the memo and the parser. */
    private static final int PLAIN_STRING_BYTES = ValueMemo.KEY_BYTES;
    private static final Object NULL = new Object();
    private static final byte[][] LITERALS = {
        "true".getBytes(StandardCharsets.US_ASCII), "false".getBytes(StandardCharsets.US_ASCII),
        "null".getBytes(StandardCharsets.US_ASCII)};
    private static final Object[] LITERAL_VALUES = {Boolean.TRUE, Boolean.FALSE, NULL};

    private static final byte[] ARRAY_START = {'['};
    /** A body with more new values than this remembers only this many: more would only churn the memo. */
    private static final int MAX_REMEMBERED_PER_BODY = 4_096;

    private final Buffer body;
    private final byte[] bytes;
    private final int base;
    private final int end;
    private final StrictJson.FieldSpans spans;
    private final ValueMemo memo;
    private int at;
    private boolean repeatedKey;
    private int remembered;

    private MemoizedDecoder(Buffer body, byte[] bytes, int base, StrictJson.FieldSpans spans, ValueMemo memo) {
        this.body = body;
        this.bytes = bytes;
        this.base = base;
        this.end = base + body.length();
        this.at = base;
        this.spans = spans;
        this.memo = memo;
    }

    /**
     * The object {@code body} holds, or {@code null} when it must be decoded the ordinary way.
     *
     * @param bytes the array {@code body}'s bytes are in, from {@code base} on
     * @param spans where the top-level fields lie and whether a key repeats; filled as
     *              {@link StrictJson#decode(Buffer, StrictJson.FieldSpans)} fills it; may be {@code null}
     */
    static JsonObject decode(Buffer body, byte[] bytes, int base, StrictJson.FieldSpans spans, ValueMemo memo) {
        StrictJson.FieldSpans noted = new StrictJson.FieldSpans();
        MemoizedDecoder decoder = new MemoizedDecoder(body, bytes, base, noted, memo);
        JsonObject object;
        try {
            object = decoder.object();
        } catch (IOException | RuntimeException offPath) {
            return null; // decoded again the ordinary way, which reports what is wrong
        }
        if (object != null && spans != null) {
            spans.takeOver(noted, decoder.repeatedKey);
        }
        return object;
    }

    private JsonObject object() throws IOException {
        skipSpace();
        if (!take('{')) {
            return null;
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        skipSpace();
        if (take('}')) {
            return endOfBody() ? new JsonObject(fields) : null;
        }
        while (true) {
            skipSpace();
            int nameAt = at;
            String name = plainName();
            if (name == null) {
                return null;
            }
            spans.next(name, nameAt - base);
            skipSpace();
            if (!take(':')) {
                return null;
            }
            skipSpace();
            Object value = at < end && bytes[at] == '[' ? array() : value();
            int before = fields.size();
            fields.put(name, value); // the last of a repeated key wins, as in StrictJson
            if (fields.size() == before) {
                repeatedKey = true;
            }
            skipSpace();
            if (take(',')) {
                continue;
            }
            if (at < end && bytes[at] == '}') {
                spans.next(null, at - base);
                at++;
                return endOfBody() ? new JsonObject(fields) : null;
            }
            return null;
        }
    }

    // A top-level array, element by element: the array is new each turn, its elements mostly not.
    // Elements are found in the memo by their bytes; from the first one that is not, the rest of the
    // array is read by one parser, which looks each element up before decoding it.
    private JsonArray array() throws IOException {
        at++;
        List<Object> elements = new ArrayList<>();
        skipSpace();
        if (take(']')) {
            return new JsonArray(elements);
        }
        while (true) {
            skipSpace();
            ValueMemo.Remembered known = memo.find(bytes, at, end);
            if (known == null) {
                return restOfArray(elements);
            }
            at += known.length();
            repeatedKey |= known.repeatedKey();
            elements.add(known.value());
            skipSpace();
            if (take(',')) {
                continue;
            }
            if (take(']')) {
                return new JsonArray(elements);
            }
            throw new IOException("expected , or ] at " + (at - base));
        }
    }

    // The elements from here to the end of the array, through one parser over "[" and the bytes from
    // here on (so that it reads the commas between elements as an array's); offset o of the parser is
    // body position from + o - 1.
    private JsonArray restOfArray(List<Object> elements) throws IOException {
        int from = at;
        ByteBuf rest = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(ARRAY_START),
                ((BufferInternal) body).getByteBuf().slice(from - base, end - from));
        try (JsonParser parser = JacksonCodec.createParser(BufferInternal.buffer(rest))) {
            parser.nextToken(); // the "[" given, before the element that was not found
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token == null) {
                    throw new IOException("the array is not closed");
                }
                int start = from + (int) parser.currentTokenLocation().getByteOffset() - 1;
                ValueMemo.Remembered known = memo.find(bytes, start, end);
                if (known != null) {
                    parser.skipChildren();
                    repeatedKey |= known.repeatedKey();
                    elements.add(known.value());
                    continue;
                }
                StrictJson.FieldSpans inner = new StrictJson.FieldSpans();
                Object value = StrictJson.parseValue(parser, inner);
                int stop = from + (int) parser.currentLocation().getByteOffset() - 1;
                if (remembered < MAX_REMEMBERED_PER_BODY
                        && (value instanceof String || value instanceof JsonObject || value instanceof JsonArray)) {
                    value = memo.remember(bytes, start, stop, end, value, inner.repeatedKey());
                    remembered++;
                }
                repeatedKey |= inner.repeatedKey();
                elements.add(value);
            }
            at = from + (int) parser.currentLocation().getByteOffset() - 1;
        }
        return new JsonArray(elements);
    }

    private Object value() throws IOException {
        if (at >= end) {
            throw new IOException("the body ends before a value");
        }
        byte first = bytes[at];
        if (first == '"') {
            String plain = plainString();
            if (plain != null) {
                return plain;
            }
        } else if (first != '{' && first != '[') {
            Object literal = literal();
            if (literal != null) {
                return literal == NULL ? null : literal;
            }
            // A number ends at the first byte that cannot be part of it; a parser given more
            // would refuse the comma after a root-level number.
            return parsed(scalarEnd());
        }
        ValueMemo.Remembered known = memo.find(bytes, at, end);
        if (known != null) {
            at += known.length();
            repeatedKey |= known.repeatedKey();
            return known.value();
        }
        return parsed(end);
    }

    // The value from here decoded by StrictJson's rules (remembered if it is a string, object or
    // array); valueEnd is where a number ends, or the end of the body.
    private Object parsed(int valueEnd) throws IOException {
        StrictJson.FieldSpans inner = new StrictJson.FieldSpans();
        Object value;
        int length;
        try (JsonParser parser = JacksonCodec.createParser(body.slice(at - base, valueEnd - base))) {
            if (parser.nextToken() == null) {
                throw new IOException("no value at " + (at - base));
            }
            value = StrictJson.parseValue(parser, inner);
            if (valueEnd != end && parser.nextToken() != null) {
                throw new IOException("more than one value at " + (at - base));
            }
            length = valueEnd != end ? valueEnd - at : (int) parser.currentLocation().getByteOffset();
        }
        if (remembered < MAX_REMEMBERED_PER_BODY
                && (value instanceof String || value instanceof JsonObject || value instanceof JsonArray)) {
            value = memo.remember(bytes, at, at + length, end, value, inner.repeatedKey());
            remembered++;
        }
        repeatedKey |= inner.repeatedKey();
        at += length;
        return value;
    }

    // A string of printable ASCII without escapes (a model name, a role), as Jackson would decode it.
    private String plainString() {
        int start = at + 1;
        for (int i = start; i < end && i - start < PLAIN_STRING_BYTES; i++) {
            byte b = bytes[i];
            if (b == '"') {
                at = i + 1;
                return new String(bytes, start, i - start, StandardCharsets.ISO_8859_1);
            }
            if (b < 0x20 || b == '\\' || b >= 0x7F) {
                return null;
            }
        }
        return null;
    }

    // true, false or null followed by a delimiter; null is answered as NULL.
    private Object literal() {
        for (int i = 0; i < LITERALS.length; i++) {
            byte[] word = LITERALS[i];
            int after = at + word.length;
            if (after <= end && Arrays.equals(bytes, at, after, word, 0, word.length)
                    && (after == end || isDelimiter(bytes[after]))) {
                at = after;
                return LITERAL_VALUES[i];
            }
        }
        return null;
    }

    private static boolean isDelimiter(byte b) {
        return b == ',' || b == '}' || b == ']' || isSpace(b);
    }

    private int scalarEnd() {
        int i = at;
        while (i < end) {
            byte b = bytes[i];
            if (isDelimiter(b)) {
                break;
            }
            i++;
        }
        return i;
    }

    // A field name of printable ASCII without escapes; anything else goes the ordinary way.
    private String plainName() {
        if (!take('"')) {
            return null;
        }
        int start = at;
        while (at < end) {
            byte b = bytes[at];
            if (b == '"') {
                String name = new String(bytes, start, at - start, StandardCharsets.ISO_8859_1);
                at++;
                return name;
            }
            if (b < 0x20 || b == '\\' || b >= 0x7F) {
                return null;
            }
            at++;
        }
        return null;
    }

    private boolean endOfBody() {
        skipSpace();
        return at == end;
    }

    private boolean take(char expected) {
        if (at < end && bytes[at] == expected) {
            at++;
            return true;
        }
        return false;
    }

    private void skipSpace() {
        while (at < end && isSpace(bytes[at])) {
            at++;
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }
}
