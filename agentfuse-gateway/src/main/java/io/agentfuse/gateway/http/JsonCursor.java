package io.agentfuse.gateway.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A position in a JSON body's bytes and the few readings {@link MemoizedDecoder} does itself, on
 * the narrow path where they agree with the parser by construction: white space, punctuation,
 * names and short strings of printable ASCII without escapes, the literals. Anything else is left
 * to the parser (a reading answers {@code null} and moves nothing). {@link JsonScan} checks whole
 * bodies with it.
 *
 * <p>Not thread-safe: one per body.
 */
final class JsonCursor {

    /**
     * The longest name read here, in bytes: the parser refuses names of more than 50 000
     * characters (Jackson's default {@code StreamReadConstraints}), and a name of fewer bytes has
     * fewer characters. A longer one is left to the parser, which says so.
     */
    static final int MAX_NAME_BYTES = 50_000;

    /** What {@link #literal()} answers for {@code null}, which is not "no literal here". */
    static final Object NULL_LITERAL = new Object();

    private static final byte[][] LITERALS = {
        "true".getBytes(StandardCharsets.US_ASCII), "false".getBytes(StandardCharsets.US_ASCII),
        "null".getBytes(StandardCharsets.US_ASCII)};
    private static final Object[] LITERAL_VALUES = {Boolean.TRUE, Boolean.FALSE, NULL_LITERAL};

    final byte[] bytes;
    final int end;
    /** Where the next reading starts. */
    int at;

    JsonCursor(byte[] bytes, int at, int end) {
        this.bytes = bytes;
        this.at = at;
        this.end = end;
    }

    /** Whether the byte here is {@code expected}; moves nothing. */
    boolean is(char expected) {
        return at < end && bytes[at] == expected;
    }

    /** Moves past {@code expected} if it is here. */
    boolean take(char expected) {
        if (is(expected)) {
            at++;
            return true;
        }
        return false;
    }

    /** Moves past white space, then past {@code expected} if it is there. */
    boolean takeAfterSpace(char expected) {
        skipSpace();
        return take(expected);
    }

    /** Moves past JSON white space. */
    void skipSpace() {
        while (at < end && isSpace(bytes[at])) {
            at++;
        }
    }

    /** Whether only white space is left. */
    boolean endOfBody() {
        skipSpace();
        return at == end;
    }

    /** A quoted name of printable ASCII without escapes, at most {@link #MAX_NAME_BYTES} long, moved past; else {@code null}. */
    String plainName() {
        return plainString(MAX_NAME_BYTES);
    }

    /** {@link #plainName()} for a string value, looking at most {@code maxBytes} into it. */
    String plainString(int maxBytes) {
        if (!is('"')) {
            return null;
        }
        int start = at + 1;
        for (int i = start; i < end && i - start < maxBytes; i++) {
            byte b = bytes[i];
            if (b == '"') {
                at = i + 1;
                return new String(bytes, start, i - start, StandardCharsets.ISO_8859_1);
            }
            if (!isPlain(b)) {
                return null;
            }
        }
        return null;
    }

    /** {@code true}, {@code false} or {@link #NULL_LITERAL} if one is here, followed by a delimiter, moved past; else {@code null}. */
    Object literal() {
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

    /** Where a number starting here ends: at the first delimiter. Moves nothing. */
    int scalarEnd() {
        int i = at;
        while (i < end && !isDelimiter(bytes[i])) {
            i++;
        }
        return i;
    }

    /**
     * The char the escape at {@code i} (its backslash) stands for — a lone surrogate too, as the
     * parser keeps it — or -1 if JSON knows no such escape. Its length: 6 for a {@code u} escape, else 2.
     */
    static int escaped(byte[] bytes, int i, int end) {
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
            case 'u' -> hex(bytes, i + 2, end);
            default -> -1;
        };
    }

    private static int hex(byte[] bytes, int i, int end) {
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

    private static boolean isPlain(byte b) {
        return b >= 0x20 && b != '\\' && b < 0x7F;
    }

    static boolean isDelimiter(byte b) {
        return b == ',' || b == '}' || b == ']' || isSpace(b);
    }

    private static boolean isSpace(byte b) {
        // Most bytes asked about are above the space: one comparison says no.
        return b <= ' ' && (b == ' ' || b == '\n' || b == '\r' || b == '\t');
    }
}
