package io.agentfuse.gateway.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decodes a request body in one pass, as {@code Json.decodeValue} does, and refuses in the same
 * pass what that accepts but must never reach a provider: a number too large for a double
 * ({@code "seed": 1e999} would be forwarded as {@code "Infinity"}), and anything that is not
 * JSON by RFC 8259 — comments ({@code /*…*}{@code /}, {@code //}, which Vert.x's reader allows),
 * {@code NaN} and {@code Infinity}, single quotes, unquoted names, trailing commas, leading zeros —
 * and a byte order mark before the body ({@link #BYTE_ORDER_MARK}). The body is forwarded as the
 * caller's own bytes when no field is rewritten ({@code dialect.ForwardedBody}), so what this
 * accepts is what a provider reads: a leniency here made a request work or fail by whether an
 * unrelated field was rewritten (re-encoded, the comment or the mark was gone). Every reader of
 * a caller's JSON takes its parser from {@link #parser(Buffer)}, the one home of these rules.
 * Trailing content after the value is refused too. Every object and array decoded is unmodifiable,
 * all the way down and whatever the body's size ({@link FrozenMap}): change a copy. Jackson's
 * streaming parser reads every body and words every error; a long one takes what a
 * {@link ValueMemo} remembers ({@link MemoizedDecoder}) and leaves the rest to Jackson.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * Object value = StrictJson.decode(ctx.body().buffer()); // JsonObject, JsonArray, String, Number, Boolean or null
 * }</pre>
 */
public final class StrictJson {

    /**
     * What a body that opens with a UTF-8 byte order mark is told. RFC 8259 (§8.1) says a sender
     * must not add one and a receiver may ignore it; Jackson skips it, and the body then went to the
     * provider with the mark when forwarded as it came (OpenAI refuses it: 400) but without it when a
     * field was rewritten. Refused, not stripped: stripping would mean forwarding other bytes than the
     * caller's (or copying every body), and a caller that sends one is told once, plainly, what to fix.
     */
    static final String BYTE_ORDER_MARK = "a byte order mark (EF BB BF) before the JSON body; send UTF-8 without one";

    /** The parser features of every {@link JsonReadFeature}, each of them a leniency RFC 8259 does not allow. */
    private static final JsonParser.Feature[] LENIENCIES = Arrays.stream(JsonReadFeature.values())
            .map(JsonReadFeature::mappedFeature).filter(Objects::nonNull).toArray(JsonParser.Feature[]::new);

    /** Bodies from this size on are worth a {@link ValueMemo}: below it, decoding costs a few microseconds. */
    public static final int MEMO_FROM_BYTES = 8 * 1024;

    private StrictJson() {
    }

    /**
     * The value of {@code body}.
     *
     * @throws DecodeException if it is not one well-formed JSON value with finite numbers only
     */
    public static Object decode(Buffer body) {
        return decode(body, null);
    }

    /**
     * {@link #decode(Buffer)}, noting in {@code spans} (unless {@code null}) where each top-level
     * field of an object lies in {@code body} and whether any object repeats a key — in the same
     * pass, so that the body's own bytes can be forwarded without scanning them again.
     *
     * @throws DecodeException if it is not one well-formed JSON value with finite numbers only
     */
    public static Object decode(Buffer body, FieldSpans spans) {
        return decode(body, spans, null);
    }

    /**
     * {@link #decode(Buffer, FieldSpans)}, taking the values {@code memo} remembers instead of
     * decoding them again (and remembering those it decodes), for a body of at least
     * {@value #MEMO_FROM_BYTES} bytes whose bytes are in an array: the top-level fields' values
     * and the elements of top-level arrays, where a resent conversation repeats itself. The
     * result is the same as without a memo.
     *
     * @param memo {@code null} to decode everything
     * @throws DecodeException if it is not one well-formed JSON value with finite numbers only
     */
    public static Object decode(Buffer body, FieldSpans spans, ValueMemo memo) {
        if (body.length() >= 3 && body.getByte(0) == (byte) 0xEF && body.getByte(1) == (byte) 0xBB
                && body.getByte(2) == (byte) 0xBF) {
            throw new DecodeException(BYTE_ORDER_MARK);
        }
        ByteBuf bytes = memo != null && body.length() >= MEMO_FROM_BYTES ? heapBytes(body) : null;
        if (bytes != null) {
            JsonObject object = MemoizedDecoder.decode(body, bytes.array(), bytes.arrayOffset() + bytes.readerIndex(),
                    spans, memo);
            if (object != null) {
                return object; // else spans are as given: the memo path notes into its own until it succeeds
            }
        }
        return parse(body, spans);
    }

    /**
     * {@link #decode(Buffer, FieldSpans)} by Jackson, for a body the memo does not read; the long
     * plain strings of a body of {@value #MEMO_FROM_BYTES} bytes or more read from its bytes when they
     * are in an object or an array ({@link LongStrings}). A shorter body's strings are Jackson's: what
     * reading them apart saves is a few kilobytes, and asking where each string lies costs every
     * small request an object per string.
     */
    static Object parse(Buffer body, FieldSpans spans) {
        ByteBuf heap = body.length() < MEMO_FROM_BYTES ? null : heapBytes(body);
        int from = heap == null ? 0 : heap.arrayOffset() + heap.readerIndex();
        LongStrings strings = heap == null ? null : new LongStrings(heap.array(), from, from + body.length());
        try (JsonParser parser = parser(body)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new DecodeException("no JSON value");
            }
            Object value = parseAny(parser, spans, true, strings);
            if (parser.nextToken() != null) {
                throw new DecodeException("unexpected content after the JSON value");
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new DecodeException(JsonFaults.describe(e), e);
        } catch (IOException e) {
            throw new DecodeException("the JSON could not be read", e);
        }
    }

    /**
     * A parser of {@code body} by RFC 8259: Vert.x's (its limits on depth and lengths, its buffer
     * recycling) without the comments it allows. Jackson's other leniencies ({@code NaN}, single
     * quotes, trailing commas, unquoted names, leading zeros) are off by default and stay off.
     */
    static JsonParser parser(Buffer body) {
        JsonParser parser = JacksonCodec.createParser(body);
        for (JsonParser.Feature lenient : LENIENCIES) {
            parser.disable(lenient);
        }
        return parser;
    }

    /**
     * The buffer under {@code body} when its bytes are in an array (a buffer read by Vert.x always
     * is), else null: its readable bytes are then read in place, not copied out.
     */
    public static ByteBuf heapBytes(Buffer body) {
        ByteBuf bytes = VertxHooks.byteBuf(body);
        return bytes.hasArray() ? bytes : null;
    }

    /**
     * The value whose first token {@code parser} is at, with this class's checks; repeated keys noted
     * in {@code spans}; the long plain strings within it read by {@code strings} (may be {@code null}).
     */
    static Object parseValue(JsonParser parser, FieldSpans spans, LongStrings strings) throws IOException {
        return parseAny(parser, spans, false, strings);
    }

    // A string that is the value itself is read by the parser, so that it stands after it when this returns.
    private static Object parseAny(JsonParser parser, FieldSpans spans, boolean top, LongStrings strings)
            throws IOException {
        return switch (parser.currentToken()) {
            // Wrapped once here: a raw map or list inside a JsonObject is wrapped anew on every read.
            case START_OBJECT -> parseObject(parser, spans, top, strings);
            case START_ARRAY -> FrozenMap.array(parseArray(parser, spans, strings));
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

    /** A value within an object or an array, which the parser reads past before this returns to it. */
    private static Object member(JsonParser parser, FieldSpans spans, LongStrings strings) throws IOException {
        if (strings != null && parser.currentToken() == JsonToken.VALUE_STRING) {
            String read = strings.read(parser);
            if (read != null) {
                return read;
            }
        }
        return parseAny(parser, spans, false, strings);
    }

    private static JsonObject parseObject(JsonParser parser, FieldSpans spans, boolean top, LongStrings strings)
            throws IOException {
        FrozenMap.Builder object = new FrozenMap.Builder();
        boolean noting = top && spans != null;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            if (noting) {
                spans.next(name, parser.currentTokenLocation().getByteOffset());
            }
            parser.nextToken();
            // the last of a repeated key wins, as in Json.decodeValue
            if (!object.put(name, member(parser, spans, strings)) && spans != null) {
                spans.repeatedKey = true;
            }
        }
        if (parser.currentToken() != JsonToken.END_OBJECT) {
            throw new DecodeException("unexpected token " + parser.currentToken() + " in an object");
        }
        if (noting) {
            spans.next(null, parser.currentTokenLocation().getByteOffset());
        }
        return object.build();
    }

    private static List<Object> parseArray(JsonParser parser, FieldSpans spans, LongStrings strings) throws IOException {
        List<Object> array = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() == null) {
                throw new DecodeException("the array is not closed");
            }
            array.add(member(parser, spans, strings));
        }
        return array;
    }

    private static String location(JsonParser parser) {
        return "line " + parser.currentLocation().getLineNr() + ", column " + parser.currentLocation().getColumnNr();
    }

    /**
     * Where the top-level fields of a decoded object lie in its bytes — each from the start of its
     * name to the next token (the comma and white space before it included) — and whether any
     * object of the document repeats a key. Filled by {@link #decode(Buffer, FieldSpans)}; not
     * thread-safe, one per decode.
     */
    public static final class FieldSpans {
        private final Map<String, long[]> spans = new HashMap<>();
        private String field;
        private long start;
        private boolean repeatedKey;

        /** {@code [start, next)} of {@code field}'s bytes, or {@code null} if it is not a top-level field. */
        public long[] of(String field) {
            return spans.get(field);
        }

        /** How many top-level fields were noted. */
        public int size() {
            return spans.size();
        }

        /** Whether an object at any depth had a key twice (then the bytes and the parsed value may differ). */
        public boolean repeatedKey() {
            return repeatedKey;
        }

        /** Takes what {@code noted} holds, and a repeated key if {@code repeated}. */
        void takeOver(FieldSpans noted, boolean repeated) {
            spans.putAll(noted.spans);
            repeatedKey |= repeated || noted.repeatedKey;
        }

        void next(String name, long at) {
            if (field != null) {
                spans.put(field, new long[] {start, at});
            }
            field = name;
            start = at;
        }
    }
}
