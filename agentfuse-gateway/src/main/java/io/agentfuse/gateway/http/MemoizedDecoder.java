package io.agentfuse.gateway.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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

    private static final byte[] ARRAY_START = {'['};
    /** A body with more new values than this remembers only this many: more would only churn the memo. */
    private static final int MAX_REMEMBERED_PER_BODY = 4_096;
    /**
     * A body needing more parsers than this (one per top-level value not found, one per top-level
     * array from its first new element) is decoded the ordinary way: a request has a few dozen
     * fields, and a body of a hundred thousand numbers must cost one pass, not a parser each.
     */
    private static final int MAX_PARSERS_PER_BODY = 64;

    private final Buffer body;
    private final byte[] bytes;
    private final int base;
    private final int end;
    private final StrictJson.FieldSpans spans;
    private final ValueMemo memo;
    private final JsonCursor cursor;
    private boolean repeatedKey;
    private int remembered;
    private int parsers;

    private MemoizedDecoder(Buffer body, byte[] bytes, int base, StrictJson.FieldSpans spans, ValueMemo memo) {
        this.body = body;
        this.bytes = bytes;
        this.base = base;
        this.end = base + body.length();
        this.cursor = new JsonCursor(bytes, base, end);
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
        cursor.skipSpace();
        if (!cursor.take('{')) {
            return null;
        }
        FrozenMap.Builder fields = new FrozenMap.Builder();
        cursor.skipSpace();
        if (cursor.take('}')) {
            return cursor.endOfBody() ? fields.build() : null;
        }
        while (true) {
            cursor.skipSpace();
            int nameAt = cursor.at;
            String name = cursor.plainName();
            if (name == null) {
                return null;
            }
            spans.next(name, nameAt - base);
            cursor.skipSpace();
            if (!cursor.take(':')) {
                return null;
            }
            cursor.skipSpace();
            Object value = cursor.is('[') ? array() : value();
            if (!fields.put(name, value)) { // the last of a repeated key wins, as in StrictJson
                repeatedKey = true;
            }
            cursor.skipSpace();
            if (cursor.take(',')) {
                continue;
            }
            if (cursor.is('}')) {
                spans.next(null, cursor.at - base);
                cursor.at++;
                return cursor.endOfBody() ? fields.build() : null;
            }
            return null;
        }
    }

    // A top-level array, element by element: the array is new each turn, its elements mostly not.
    // Elements are found in the memo by their bytes; one that is not is decoded by a parser of its
    // own, and the next looked up again, while half the body's parsers are left; from then on the
    // rest of the array is read by one parser, which looks each element up before decoding it (and
    // reads through every element it finds). Until 2026-12 the first element not found sent the
    // rest of the array to that parser: eight agents' conversations resent in turn, each new to the
    // memo somewhere near its start, were read through whole on every request, 0.9 ms of CPU where
    // one agent's cost 0.2 ms.
    private JsonArray array() throws IOException {
        cursor.at++;
        List<Object> elements = new ArrayList<>();
        cursor.skipSpace();
        if (cursor.take(']')) {
            return FrozenMap.array(elements);
        }
        while (true) {
            cursor.skipSpace();
            ValueMemo.Remembered known = memo.find(bytes, cursor.at, end);
            if (known != null) {
                cursor.at += known.length();
                repeatedKey |= known.repeatedKey();
                elements.add(known.value());
            } else if (parsers < MAX_PARSERS_PER_BODY / 2 && cursor.at < end && endsItself(bytes[cursor.at])) {
                elements.add(parsed(end));
            } else {
                return restOfArray(elements);
            }
            cursor.skipSpace();
            if (cursor.take(',')) {
                continue;
            }
            if (cursor.take(']')) {
                return FrozenMap.array(elements);
            }
            throw new IOException("expected , or ] at " + (cursor.at - base));
        }
    }

    // The elements from here to the end of the array, through one parser over "[" and the bytes from
    // here on (so that it reads the commas between elements as an array's); offset o of the parser is
    // body position from + o - 1.
    private JsonArray restOfArray(List<Object> elements) throws IOException {
        int from = cursor.at;
        countParser();
        ByteBuf rest = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(ARRAY_START),
                VertxHooks.byteBuf(body).slice(from - base, end - from));
        LongStrings strings = new LongStrings(bytes, from - 1, end);
        try (JsonParser parser = StrictJson.parser(VertxHooks.buffer(rest))) {
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
                Object value = StrictJson.parseValue(parser, inner, strings);
                int stop = from + (int) parser.currentLocation().getByteOffset() - 1;
                if (remembered < MAX_REMEMBERED_PER_BODY
                        && (value instanceof String || value instanceof JsonObject || value instanceof JsonArray)) {
                    value = memo.remember(bytes, start, stop, end, value, inner.repeatedKey());
                    remembered++;
                }
                repeatedKey |= inner.repeatedKey();
                elements.add(value);
            }
            cursor.at = from + (int) parser.currentLocation().getByteOffset() - 1;
        }
        return FrozenMap.array(elements);
    }

    private Object value() throws IOException {
        if (cursor.at >= end) {
            throw new IOException("the body ends before a value");
        }
        byte first = bytes[cursor.at];
        if (first == '"') {
            String plain = cursor.plainString(PLAIN_STRING_BYTES);
            if (plain != null) {
                return plain;
            }
        } else if (first != '{' && first != '[') {
            Object literal = cursor.literal();
            if (literal != null) {
                return literal == JsonCursor.NULL_LITERAL ? null : literal;
            }
            // A number ends at the first byte that cannot be part of it; a parser given more
            // would refuse the comma after a root-level number.
            return parsed(cursor.scalarEnd());
        }
        ValueMemo.Remembered known = memo.find(bytes, cursor.at, end);
        if (known != null) {
            cursor.at += known.length();
            repeatedKey |= known.repeatedKey();
            return known.value();
        }
        return parsed(end);
    }

    // The value from here decoded by StrictJson's rules (remembered if it is a string, object or
    // array); valueEnd is where a number ends, or the end of the body.
    private Object parsed(int valueEnd) throws IOException {
        countParser();
        StrictJson.FieldSpans inner = new StrictJson.FieldSpans();
        Object value;
        int length;
        try (JsonParser parser = StrictJson.parser(body.slice(cursor.at - base, valueEnd - base))) {
            if (parser.nextToken() == null) {
                throw new IOException("no value at " + (cursor.at - base));
            }
            value = StrictJson.parseValue(parser, inner, new LongStrings(bytes, cursor.at, valueEnd));
            if (valueEnd != end && parser.nextToken() != null) {
                throw new IOException("more than one value at " + (cursor.at - base));
            }
            length = valueEnd != end ? valueEnd - cursor.at : (int) parser.currentLocation().getByteOffset();
        }
        if (remembered < MAX_REMEMBERED_PER_BODY
                && (value instanceof String || value instanceof JsonObject || value instanceof JsonArray)) {
            value = memo.remember(bytes, cursor.at, cursor.at + length, end, value, inner.repeatedKey());
            remembered++;
        }
        repeatedKey |= inner.repeatedKey();
        cursor.at += length;
        return value;
    }

    /** Whether a value that begins with {@code first} ends at a byte of its own (an object, an array, a string), unlike a number. */
    private static boolean endsItself(byte first) {
        return first == '{' || first == '[' || first == '"';
    }

    private void countParser() throws IOException {
        if (++parsers > MAX_PARSERS_PER_BODY) {
            throw new IOException("more than " + MAX_PARSERS_PER_BODY + " values to parse: decoded the ordinary way");
        }
    }
}
