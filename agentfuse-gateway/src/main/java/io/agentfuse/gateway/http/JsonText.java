package io.agentfuse.gateway.http;

import io.agentfuse.gateway.internal.ByteSearch;

/**
 * What JSON text allows, byte by byte, as the gateway's own readings of it ({@link JsonCursor},
 * {@link JsonScan}) take it: white space and delimiters, escapes, well-formed UTF-8, plain
 * integers, where a string ends. Each rule accepts a subset of what the parser (Jackson, as
 * Vert.x configures it) accepts, so that a reading that follows them never says yes where the
 * parser says no; what they leave out, the parser reads.
 *
 * <p>Stateless and thread-safe.
 */
final class JsonText {

    /** Integers longer than this are left to the parser (which has its own limit, and big numbers). */
    static final int MAX_INTEGER_DIGITS = 18;
    /** Strings longer than this are left to the parser, whose limit is higher (20 M characters). */
    static final int MAX_STRING_BYTES = 1 << 20;
    /** Deeper nesting is left to the parser, whose limit is higher (1 000). */
    static final int MAX_DEPTH = 200;

    private JsonText() {
    }

    /** Whether {@code b} is JSON white space. */
    static boolean isSpace(byte b) {
        // Most bytes asked about are above the space: one comparison says no.
        return b <= ' ' && (b == ' ' || b == '\n' || b == '\r' || b == '\t');
    }

    /** Whether {@code b} ends a number or a literal: a comma, a closing bracket or brace, white space. */
    static boolean isDelimiter(byte b) {
        return b == ',' || b == '}' || b == ']' || isSpace(b);
    }

    /**
     * Where the string whose opening quote is at {@code at} ends (just after its closing quote), or
     * -1 when no plain reading of it ends before {@code end}: more than {@code maxBytes} of content, a
     * control character, an escape JSON does not know (or any escape when not {@code escapes}),
     * malformed or overlong UTF-8.
     */
    static int stringEnd(byte[] bytes, int at, int end, int maxBytes, boolean escapes) {
        if (at >= end || bytes[at] != '"') {
            return -1;
        }
        int start = at + 1;
        int i = start;
        while (i < end) {
            i = ByteSearch.jsonStringPlainEnd(bytes, i, end);
            if (i == end) {
                break;
            }
            int b = bytes[i] & 0xFF;
            int length;
            if (b == '"') {
                return i - start > maxBytes ? -1 : i + 1;
            } else if (b < 0x20) {
                return -1; // a control character must be escaped
            } else if (b == '\\') {
                length = escapes ? escapeLength(bytes, i, end) : 0;
            } else { // 0x80 and above: the plain run ends at nothing else
                length = utf8Length(bytes, i, end);
            }
            if (length == 0) {
                return -1;
            }
            i += length;
        }
        return -1;
    }

    /**
     * How many digits of a plain integer start at {@code i} and end at a delimiter (or the body's
     * end): at most {@value #MAX_INTEGER_DIGITS}, no leading zero, no fraction or exponent; 0 if none.
     */
    static int integerDigits(byte[] bytes, int i, int end) {
        int start = i;
        while (i < end && bytes[i] >= '0' && bytes[i] <= '9') {
            i++;
        }
        int digits = i - start;
        boolean leadingZero = digits > 1 && bytes[start] == '0';
        boolean delimited = i == end || isDelimiter(bytes[i]); // not a fraction, an exponent, junk
        return digits == 0 || digits > MAX_INTEGER_DIGITS || leadingZero || !delimited ? 0 : digits;
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

    /** How long the escape at {@code i} (its backslash) is, or 0 if it is not one JSON knows. */
    static int escapeLength(byte[] bytes, int i, int end) {
        if (escaped(bytes, i, end) < 0) {
            return 0;
        }
        return bytes[i + 1] == 'u' ? 6 : 2;
    }

    /**
     * How long the well-formed UTF-8 sequence at {@code i} is (2 to 4 bytes), or 0 if it is not
     * one: a stray continuation byte, an overlong form, an encoded surrogate, beyond U+10FFFF, cut short.
     */
    static int utf8Length(byte[] bytes, int i, int end) {
        int first = bytes[i] & 0xFF;
        int length;
        int secondMin = 0x80;
        int secondMax = 0xBF;
        if (first >= 0xC2 && first <= 0xDF) {
            length = 2;
        } else if (first >= 0xE0 && first <= 0xEF) {
            length = 3;
            if (first == 0xE0) {
                secondMin = 0xA0;
            } else if (first == 0xED) {
                secondMax = 0x9F;
            }
        } else if (first >= 0xF0 && first <= 0xF4) {
            length = 4;
            if (first == 0xF0) {
                secondMin = 0x90;
            } else if (first == 0xF4) {
                secondMax = 0x8F;
            }
        } else {
            return 0;
        }
        if (i + length > end) {
            return 0;
        }
        int second = bytes[i + 1] & 0xFF;
        if (second < secondMin || second > secondMax) {
            return 0;
        }
        for (int k = i + 2; k < i + length; k++) {
            int next = bytes[k] & 0xFF;
            if (next < 0x80 || next > 0xBF) {
                return 0;
            }
        }
        return length;
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
}
