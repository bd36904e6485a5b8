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
 * {@value JsonScan#MAX_INTEGER_DIGITS} digits, an escape JSON does not know, UTF-8 that is not
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

    private final byte[] bytes;
    private final int base;
    private final int end;
    private final StrictJson.FieldSpans spans;
    private int at;
    private boolean notPlain;

    private PlainDecoder(byte[] bytes, int from, int to, StrictJson.FieldSpans spans) {
        this.bytes = bytes;
        this.base = from;
        this.at = from;
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
        decoder.skipSpace();
        Object value = decoder.value(0, true);
        decoder.skipSpace();
        return decoder.notPlain || decoder.at != to ? NOT_PLAIN : value;
    }

    private Object value(int depth, boolean top) {
        if (at >= end) {
            return giveUp();
        }
        return switch (bytes[at]) {
            case '{' -> depth < JsonScan.MAX_DEPTH ? object(depth + 1, top) : giveUp();
            case '[' -> depth < JsonScan.MAX_DEPTH ? array(depth + 1) : giveUp();
            case '"' -> notPlainOr(string());
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Object object(int depth, boolean top) {
        at++;
        Map<String, Object> members = new LinkedHashMap<>();
        boolean noting = top && spans != null;
        skipSpace();
        if (take('}')) {
            return new JsonObject(members);
        }
        do {
            skipSpace();
            int nameAt = at;
            if (at >= end || bytes[at] != '"') {
                return giveUp();
            }
            String name = string();
            skipSpace();
            if (notPlain || at - nameAt > JsonCursor.MAX_NAME_BYTES || !take(':')) {
                return giveUp();
            }
            if (noting) {
                spans.next(name, nameAt - base);
            }
            skipSpace();
            Object member = value(depth, false);
            if (notPlain) {
                return NOT_PLAIN;
            }
            int before = members.size();
            members.put(name, member);
            if (members.size() == before && spans != null) {
                spans.noteRepeatedKey();
            }
            skipSpace();
        } while (take(','));
        if (at >= end || bytes[at] != '}') {
            return giveUp();
        }
        if (noting) {
            spans.next(null, at - base);
        }
        at++;
        return new JsonObject(members);
    }

    private Object array(int depth) {
        at++;
        List<Object> elements = new ArrayList<>();
        skipSpace();
        if (take(']')) {
            return new JsonArray(elements);
        }
        do {
            skipSpace();
            Object element = value(depth, false);
            if (notPlain) {
                return NOT_PLAIN;
            }
            elements.add(element);
            skipSpace();
        } while (take(','));
        return take(']') ? new JsonArray(elements) : giveUp();
    }

    /** The string at its opening quote, escapes decoded; moved past. {@code null} when not plain (then the reading is over). */
    private String string() {
        int start = ++at;
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
                at = i + 1;
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
                int escaped = escaped(i);
                if (escaped < 0) {
                    return notString();
                }
                decoded.append((char) escaped);
                i += bytes[i + 1] == 'u' ? 6 : 2;
                run = i;
            } else { // 0x80 and above: a multi-byte sequence, decoded with its run once known well formed
                int length = JsonScan.utf8Length(bytes, i, end);
                if (length == 0) {
                    return notString();
                }
                i += length;
            }
        }
    }

    /** The char the escape at {@code i} (its backslash) stands for, or -1 if JSON knows no such escape. */
    private int escaped(int i) {
        if (i + 1 >= end) {
            return -1;
        }
        return switch (bytes[i + 1]) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> hex(i + 2);
            default -> -1;
        };
    }

    /** The four hex digits at {@code i} as a char (a lone surrogate too, as the parser keeps it), or -1. */
    private int hex(int i) {
        if (i + 4 > end) {
            return -1;
        }
        int value = 0;
        for (int k = i; k < i + 4; k++) {
            int digit = Character.digit(bytes[k], 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private Object literal(String word, Object value) {
        int after = at + word.length();
        if (after > end) {
            return giveUp();
        }
        for (int k = 0; k < word.length(); k++) {
            if (bytes[at + k] != word.charAt(k)) {
                return giveUp();
            }
        }
        at = after;
        return value;
    }

    /**
     * A number in JSON's grammar: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}.
     * An integer of at most {@value JsonScan#MAX_INTEGER_DIGITS} digits is an {@code Integer} when
     * it fits one, else a {@code Long}; any other is a {@code Double}, finite.
     */
    private Object number() {
        int start = at;
        int i = at;
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
        if (i - start > MAX_NUMBER_BYTES || i < end && !JsonCursor.isDelimiter(bytes[i])) {
            return giveUp();
        }
        at = i;
        if (integral) {
            return integerDigits > JsonScan.MAX_INTEGER_DIGITS ? giveUp() : integer(digitsStart, i, negative);
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

    private boolean take(char expected) {
        if (at < end && bytes[at] == expected) {
            at++;
            return true;
        }
        return false;
    }

    private void skipSpace() {
        while (at < end) {
            byte b = bytes[at];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return;
            }
            at++;
        }
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
