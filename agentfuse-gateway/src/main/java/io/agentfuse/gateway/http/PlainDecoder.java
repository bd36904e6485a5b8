package io.agentfuse.gateway.http;

import io.agentfuse.gateway.internal.ByteSearch;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a small body without a parser when all of it is plainly well formed: what a parser
 * costs to set up (its context, buffers and symbol table, some 2 KB and half a microsecond) is
 * most of what decoding a small request costs. The result is the one {@link StrictJson} gives
 * with Jackson, spans and repeated keys included: the same value types ({@code Integer} for an
 * integer that fits, else {@code Long}; {@code Double} for any other number, read by
 * {@link Double#parseDouble}, as Jackson reads it), the last of a repeated key kept where the
 * first stood.
 *
 * <p>It only ever says "here it is" or "ask the parser" ({@link #NOT_PLAIN}): anything malformed,
 * a number of more than {@value #MAX_NUMBER_BYTES} bytes or not finite, an integer of more than
 * {@value JsonText#MAX_INTEGER_DIGITS} digits, an escape JSON does not know, UTF-8 that is not
 * well formed (overlong forms and encoded surrogates included), nesting deeper than
 * {@value JsonScan#MAX_DEPTH}, trailing content. The parser then decides and words the error, so
 * every error comes from one decoder.
 *
 * <p>Not thread-safe: one per body.
 */
final class PlainDecoder {

    /** What {@link #decode} answers when the parser must decide. */
    static final Object NOT_PLAIN = new Object();

    /** Longer numbers are left to the parser (whose own limit is 1 000 characters). */
    static final int MAX_NUMBER_BYTES = 64;

    private final JsonCursor cursor;
    private final byte[] bytes;
    private final int base;
    private final int end;
    private final StrictJson.FieldSpans spans;
    private boolean notPlain;

    private PlainDecoder(byte[] bytes, int from, int to, StrictJson.FieldSpans spans) {
        this.cursor = new JsonCursor(bytes, from, to);
        this.bytes = bytes;
        this.base = from;
        this.end = to;
        this.spans = spans;
    }

    /**
     * The value of {@code bytes[from, to)}, or {@link #NOT_PLAIN}.
     *
     * @param spans filled as {@link StrictJson#decode(io.vertx.core.buffer.Buffer, StrictJson.FieldSpans)}
     *              fills it (offsets from {@code from}); may be {@code null}. Left partly filled
     *              when the answer is {@link #NOT_PLAIN}
     */
    static Object decode(byte[] bytes, int from, int to, StrictJson.FieldSpans spans) {
        PlainDecoder decoder = new PlainDecoder(bytes, from, to, spans);
        decoder.cursor.skipSpace();
        Object value = decoder.value(0, true);
        return decoder.notPlain || !decoder.cursor.endOfBody() ? NOT_PLAIN : value;
    }

    private Object value(int depth, boolean top) {
        if (cursor.at >= end) {
            return giveUp();
        }
        return switch (bytes[cursor.at]) {
            case '{' -> depth < JsonText.MAX_DEPTH ? object(depth + 1, top) : giveUp();
            case '[' -> depth < JsonText.MAX_DEPTH ? array(depth + 1) : giveUp();
            case '"' -> notPlainOr(string());
            case 't', 'f', 'n' -> literal();
            default -> number();
        };
    }

    private Object object(int depth, boolean top) {
        cursor.at++;
        Map<String, Object> members = new LinkedHashMap<>();
        boolean noting = top && spans != null;
        if (cursor.takeAfterSpace('}')) {
            return FrozenMap.object(members);
        }
        do {
            cursor.skipSpace();
            int nameAt = cursor.at;
            if (!cursor.is('"')) {
                return giveUp();
            }
            String name = name();
            if (notPlain || cursor.at - nameAt > JsonCursor.MAX_NAME_BYTES || !cursor.takeAfterSpace(':')) {
                return giveUp();
            }
            if (noting) {
                spans.next(name, nameAt - base);
            }
            cursor.skipSpace();
            Object member = value(depth, false);
            if (notPlain) {
                return NOT_PLAIN;
            }
            int before = members.size();
            members.put(name, member);
            if (members.size() == before && spans != null) {
                spans.noteRepeatedKey();
            }
        } while (cursor.takeAfterSpace(','));
        if (!cursor.is('}')) {
            return giveUp();
        }
        if (noting) {
            spans.next(null, cursor.at - base);
        }
        cursor.at++;
        return FrozenMap.object(members);
    }

    private Object array(int depth) {
        cursor.at++;
        List<Object> elements = new ArrayList<>();
        if (cursor.takeAfterSpace(']')) {
            return FrozenMap.array(elements);
        }
        do {
            cursor.skipSpace();
            Object element = value(depth, false);
            if (notPlain) {
                return NOT_PLAIN;
            }
            elements.add(element);
        } while (cursor.takeAfterSpace(','));
        return cursor.takeAfterSpace(']') ? FrozenMap.array(elements) : giveUp();
    }

    /** A member's name at its opening quote, moved past: a short plain one as {@link FieldNames} keeps it. */
    private String name() {
        int start = cursor.at + 1;
        int limit = Math.min(end, start + FieldNames.MAX_BYTES + 1);
        for (int i = start; i < limit; i++) {
            byte b = bytes[i];
            if (b == '"') {
                cursor.at = i + 1;
                return FieldNames.of(bytes, start, i);
            }
            if (b < 0x20 || b == '\\') { // negative: a byte of a multi-byte sequence
                break;
            }
        }
        return string();
    }

    /** The string at its opening quote, escapes decoded; moved past. {@code null} when not plain (then the reading is over). */
    private String string() {
        int start = ++cursor.at;
        StringBuilder decoded = null;
        int run = start;
        int i = start;
        while (true) {
            i = ByteSearch.jsonStringPlainEnd(bytes, i, end);
            if (i >= end) {
                return notString();
            }
            int b = bytes[i] & 0xFF;
            if (b == '"') {
                cursor.at = i + 1;
                if (decoded == null) {
                    return new String(bytes, start, i - start, StandardCharsets.UTF_8);
                }
                return decoded.append(new String(bytes, run, i - run, StandardCharsets.UTF_8)).toString();
            }
            if (b < 0x20) {
                return notString(); // a control character must be escaped
            }
            if (b == '\\') {
                if (decoded == null) {
                    decoded = new StringBuilder(i - start + 16);
                }
                decoded.append(new String(bytes, run, i - run, StandardCharsets.UTF_8));
                int escaped = JsonText.escaped(bytes, i, end);
                if (escaped < 0) {
                    return notString();
                }
                decoded.append((char) escaped);
                i += bytes[i + 1] == 'u' ? 6 : 2;
                run = i;
            } else { // 0x80 and above: a multi-byte sequence, decoded with its run once known well formed
                int length = JsonText.utf8Length(bytes, i, end);
                if (length == 0) {
                    return notString();
                }
                i += length;
            }
        }
    }

    /** {@code true}, {@code false} or {@code null} here (followed by a delimiter), moved past. */
    private Object literal() {
        Object literal = cursor.literal();
        if (literal == null) {
            return giveUp();
        }
        return literal == JsonCursor.NULL_LITERAL ? null : literal;
    }

    /**
     * A number in JSON's grammar: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}.
     * An integer of at most {@value JsonText#MAX_INTEGER_DIGITS} digits is an {@code Integer} when
     * it fits one, else a {@code Long}; any other is a {@code Double}, finite.
     */
    private Object number() {
        int start = cursor.at;
        int i = start;
        boolean negative = i < end && bytes[i] == '-';
        if (negative) {
            i++;
        }
        int digitsStart = i;
        i = digits(i);
        int integerDigits = i - digitsStart;
        if (integerDigits == 0 || integerDigits > 1 && bytes[digitsStart] == '0') {
            return giveUp();
        }
        boolean integral = true;
        if (i < end && bytes[i] == '.') {
            int fraction = digits(i + 1);
            if (fraction == i + 1) {
                return giveUp();
            }
            i = fraction;
            integral = false;
        }
        if (i < end && (bytes[i] == 'e' || bytes[i] == 'E')) {
            int exponent = i + 1;
            if (exponent < end && (bytes[exponent] == '+' || bytes[exponent] == '-')) {
                exponent++;
            }
            int exponentEnd = digits(exponent);
            if (exponentEnd == exponent) {
                return giveUp();
            }
            i = exponentEnd;
            integral = false;
        }
        if (i - start > MAX_NUMBER_BYTES || i < end && !JsonText.isDelimiter(bytes[i])) {
            return giveUp();
        }
        cursor.at = i;
        if (integral) {
            return integerDigits > JsonText.MAX_INTEGER_DIGITS ? giveUp() : integer(digitsStart, i, negative);
        }
        double value = Double.parseDouble(new String(bytes, start, i - start, StandardCharsets.US_ASCII));
        return Double.isFinite(value) ? value : giveUp();
    }

    private Object integer(int from, int to, boolean negative) {
        long value = 0;
        for (int k = from; k < to; k++) {
            value = value * 10 + (bytes[k] - '0');
        }
        value = negative ? -value : value;
        if (value == (int) value) {
            return Integer.valueOf((int) value); // not in a conditional expression: that would widen it to a Long
        }
        return Long.valueOf(value);
    }

    private int digits(int i) {
        while (i < end && bytes[i] >= '0' && bytes[i] <= '9') {
            i++;
        }
        return i;
    }

    private Object notPlainOr(Object value) {
        return notPlain ? NOT_PLAIN : value;
    }

    private Object giveUp() {
        notPlain = true;
        return NOT_PLAIN;
    }

    private String notString() {
        notPlain = true;
        return null;
    }
}
