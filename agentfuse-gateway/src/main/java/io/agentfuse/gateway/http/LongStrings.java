package io.agentfuse.gateway.http;

import com.fasterxml.jackson.core.JsonParser;
import io.agentfuse.gateway.internal.ByteSearch;

import java.nio.charset.StandardCharsets;

/**
 * Reads a long JSON string straight from a body's bytes when it holds no escape and no byte beyond
 * ASCII, as media's base64 never does: one string of its exact length, where Jackson reads a string
 * into blocks of chars (two bytes each) and joins them through a builder, then copies the builder's
 * bytes into the string. The 4.8 MB of base64 of a 3.6 MB screenshot cost 19.2 MB that way,
 * measured; read here, 4.8 MB. The parser then passes over the string without decoding it (Jackson
 * decodes a string only when its text is asked for).
 *
 * <p>Only for a string inside an object or an array whose end the parser reads next: a caller that
 * reads where the parser stands right after the string (the end of a value parsed alone) would find
 * the parser still before it. Strings of fewer than {@value #FROM_BYTES} bytes, and strings with an
 * escape or a byte of a multi-byte char anywhere, are left to Jackson, which decodes and checks them.
 *
 * <p>Stateless; an instance says where a parser's bytes lie and may be used by one parser at a time.
 */
final class LongStrings {

    /** Shorter strings are left to Jackson: it reads them about as fast, and a name or a role is never long. */
    static final int FROM_BYTES = 256;

    private final byte[] bytes;
    private final int origin;
    private final int end;

    /**
     * A parser's bytes: the byte at its offset {@code o} is {@code bytes[origin + o]}, and none is
     * read at or after {@code end}.
     */
    LongStrings(byte[] bytes, int origin, int end) {
        this.bytes = bytes;
        this.origin = origin;
        this.end = end;
    }

    /**
     * The string value {@code parser} is at (its current token is {@code VALUE_STRING}, not yet
     * read), if it is long and plain; else {@code null}, and the caller asks the parser for it.
     */
    String read(JsonParser parser) {
        long offset = parser.currentTokenLocation().getByteOffset();
        int quote = origin + (int) offset;
        if (offset < 0 || quote < 0 || quote >= end || bytes[quote] != '"') {
            return null;
        }
        int from = quote + 1;
        int shortEnd = Math.min(end, from + FROM_BYTES);
        if (ByteSearch.jsonStringPlainEnd(bytes, from, shortEnd) < shortEnd) {
            return null; // it ends (or is not plain) within its first bytes
        }
        int close = ByteSearch.jsonStringPlainEnd(bytes, shortEnd, end);
        if (close >= end || bytes[close] != '"'
                || close - from > parser.streamReadConstraints().getMaxStringLength()) {
            return null; // an escape or a multi-byte char, or longer than Jackson takes: it decodes or refuses
        }
        // Every byte is 0x20..0x7F: the same chars in ISO-8859-1 as in UTF-8, copied into a compact string.
        return new String(bytes, from, close - from, StandardCharsets.ISO_8859_1);
    }
}
