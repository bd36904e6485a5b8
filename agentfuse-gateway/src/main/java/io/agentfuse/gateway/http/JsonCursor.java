package io.agentfuse.gateway.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A position in a JSON body's bytes and the few readings {@link MemoizedDecoder} does itself, on
 * the narrow path where they agree with the parser by construction: white space, punctuation,
 * names and short strings of printable ASCII without escapes, the literals. Anything else is left
 * to the parser (a reading answers {@code null} and moves nothing); and a value of any kind skipped,
 * checked by the rules of {@link JsonText}. {@link JsonScan} checks whole bodies with it.
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
        while (at < end && JsonText.isSpace(bytes[at])) {
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
                    && (after == end || JsonText.isDelimiter(bytes[after]))) {
                at = after;
                return LITERAL_VALUES[i];
            }
        }
        return null;
    }

    /** Where a number starting here ends: at the first delimiter. Moves nothing. */
    int scalarEnd() {
        int i = at;
        while (i < end && !JsonText.isDelimiter(bytes[i])) {
            i++;
        }
        return i;
    }

    /**
     * Whether a value of any kind is here — by the rules of {@link JsonText}, nested at most
     * {@value JsonText#MAX_DEPTH} deep — moved past it; else {@code false}, the cursor somewhere in it.
     */
    boolean skipValue() {
        return value(0);
    }

    private boolean value(int depth) {
        skipSpace();
        if (at >= end) {
            return false;
        }
        return switch (bytes[at]) {
            case '{' -> depth < JsonText.MAX_DEPTH && skipObject(depth + 1);
            case '[' -> depth < JsonText.MAX_DEPTH && skipArray(depth + 1);
            case '"' -> skipString();
            case 't', 'f', 'n' -> literal() != null;
            case '-' -> skipInteger(1);
            case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> skipInteger(0);
            default -> false;
        };
    }

    private boolean skipObject(int depth) {
        at++;
        if (takeAfterSpace('}')) {
            return true;
        }
        do {
            skipSpace();
            int afterName = JsonText.stringEnd(bytes, at, end, MAX_NAME_BYTES, false);
            if (afterName < 0) {
                return false;
            }
            at = afterName;
            if (!takeAfterSpace(':') || !value(depth)) {
                return false;
            }
        } while (takeAfterSpace(','));
        return takeAfterSpace('}');
    }

    private boolean skipArray(int depth) {
        at++;
        if (takeAfterSpace(']')) {
            return true;
        }
        do {
            if (!value(depth)) {
                return false;
            }
        } while (takeAfterSpace(','));
        return takeAfterSpace(']');
    }

    private boolean skipString() {
        int after = JsonText.stringEnd(bytes, at, end, JsonText.MAX_STRING_BYTES, true);
        if (after < 0) {
            return false;
        }
        at = after;
        return true;
    }

    // An integer whose digits start `sign` bytes from here, followed by a delimiter; moved past.
    private boolean skipInteger(int sign) {
        int digits = JsonText.integerDigits(bytes, at + sign, end);
        if (digits <= 0) {
            return false;
        }
        at += sign + digits;
        return true;
    }

    private static boolean isPlain(byte b) {
        return b >= 0x20 && b != '\\' && b < 0x7F;
    }
}
