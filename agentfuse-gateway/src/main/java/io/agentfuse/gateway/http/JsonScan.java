package io.agentfuse.gateway.http;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One pass over a JSON body's bytes that checks its syntax without building anything, for a
 * shortcut that must only ever say yes: every reading accepts a subset of what the parser
 * (Jackson, as Vert.x configures it) accepts, and answers {@code false} (or {@code -1}) for the
 * rest, after which the scan is over and the caller leaves the body to the parser. Left to the
 * parser: fractions and exponents, integers of more than {@value JsonText#MAX_INTEGER_DIGITS} digits,
 * names with escapes (they may spell a name the caller looks for) or of more than
 * {@value JsonCursor#MAX_NAME_BYTES} bytes, malformed or overlong UTF-8, strings of more than
 * {@value JsonText#MAX_STRING_BYTES} bytes, nesting deeper than {@value JsonText#MAX_DEPTH},
 * and of course anything the parser refuses too.
 *
 * <p>Allocates nothing per value (the scan itself, and a reader object per member kind at most).
 * Replacing a Jackson pass over a small answer with it took the answer check from 3.9 % to about
 * 2.5 % of a small request's CPU samples in perf (RESULTS.md history, runs 13–15). Its readers are
 * {@link ShapeScan}'s, which follow a {@link JsonShape}.
 *
 * <p>Not thread-safe: one per body.
 */
public final class JsonScan {

    /** Reads one member of an object: the scan stands after its name and colon. */
    @FunctionalInterface
    public interface Member {
        /**
         * Reads the member's value.
         *
         * @param noted what the object's earlier members noted (0 before the first)
         * @return what is noted after this member (never negative), or -1 when its value is not plain
         */
        int read(JsonScan scan, int noted);
    }

    /** Reads one element of an array: the scan stands before it. */
    @FunctionalInterface
    public interface Element {
        /** Reads the element; {@code false} when it is not plain. */
        boolean read(JsonScan scan);
    }

    private final JsonCursor cursor;
    private int nameStart;
    private int nameEnd;
    /** Whether a reader of the object read with a {@link ScanPrefix} kept more than what it noted. */
    private boolean keptState;

    private JsonScan(byte[] bytes, int at, int end) {
        this.cursor = new JsonCursor(bytes, at, end);
    }

    /** A scan from the start of {@code body}; {@code null} for an empty or absent body. */
    public static JsonScan of(Buffer body) {
        if (body == null || body.length() == 0) {
            return null;
        }
        ByteBuf bytes = StrictJson.heapBytes(body);
        if (bytes != null) {
            int start = bytes.arrayOffset() + bytes.readerIndex();
            return new JsonScan(bytes.array(), start, start + bytes.readableBytes());
        }
        byte[] copy = body.getBytes();
        return new JsonScan(copy, 0, copy.length);
    }

    /** A scan of all of {@code bytes}; {@code null} when there are none. */
    public static JsonScan of(byte[] bytes) {
        return bytes.length == 0 ? null : new JsonScan(bytes, 0, bytes.length);
    }

    /**
     * An object here, member by member: {@code member} reads each value, with what the earlier
     * members noted.
     *
     * @return what the last member noted (0 for an empty object), or -1 when something is not plain
     */
    public int object(Member member) {
        int opened = open();
        return opened <= 0 ? opened : members(member, 0, null, 0);
    }

    /**
     * {@link #object(Member)} for the object a body is, read on after the leading members
     * {@code prefix} remembers when the body starts with them; else read whole, its leading members
     * remembered. A reader that keeps more than what it notes calls {@link #keepsState()} first.
     */
    public int object(Member member, ScanPrefix prefix) {
        int start = cursor.at;
        if (prefix.startsWith(cursor.bytes, start, cursor.end)) {
            cursor.at = start + prefix.length();
            return members(member, prefix.noted(), null, start);
        }
        int opened = open();
        return opened <= 0 ? opened : members(member, 0, prefix, start);
    }

    /** Past an object's opening brace: 1 when members follow, 0 for an empty object (moved past its end), -1 for none here. */
    private int open() {
        if (!cursor.takeAfterSpace('{')) {
            return -1;
        }
        return cursor.takeAfterSpace('}') ? 0 : 1;
    }

    /**
     * An object's members from here to its end, starting with {@code noted}; when {@code remembering},
     * its leading members up to the first that kept state go there (the object started at {@code start}).
     */
    private int members(Member member, int noted, ScanPrefix remembering, int start) {
        if (remembering != null) {
            keptState = false; // only the outermost object's readers are asked; nested objects leave it alone
        }
        int plainEnd = -1;
        int plainNoted = 0;
        boolean more;
        do {
            noted = name() ? member.read(this, noted) : -1;
            more = noted >= 0 && cursor.takeAfterSpace(',');
            if (more && remembering != null && !keptState) {
                plainEnd = cursor.at;
                plainNoted = noted;
            }
        } while (more);
        if (plainEnd >= 0) {
            remembering.remember(cursor.bytes, start, plainEnd, plainNoted);
        }
        return noted >= 0 && cursor.takeAfterSpace('}') ? noted : -1;
    }

    /**
     * Said by a member's reader that keeps more than what it notes (a value it read, a count): in an
     * object read with a {@link ScanPrefix}, the remembered members end before this one.
     */
    public void keepsState() {
        keptState = true;
    }

    /** An array here, element by element. @return how many elements, or -1 when something is not plain */
    public int array(Element element) {
        if (!cursor.takeAfterSpace('[')) {
            return -1;
        }
        if (cursor.takeAfterSpace(']')) {
            return 0;
        }
        int count = 0;
        do {
            if (!element.read(this)) {
                return -1;
            }
            count++;
        } while (cursor.takeAfterSpace(','));
        return cursor.takeAfterSpace(']') ? count : -1;
    }

    /**
     * Whether the name of the member being read is {@code name} (ASCII bytes); ask before reading
     * its value, whose own members have names too.
     */
    public boolean nameIs(byte[] name) {
        return Arrays.equals(cursor.bytes, nameStart, nameEnd, name, 0, name.length);
    }

    /** The length in bytes, as written between its quotes, of the name of the member being read. */
    public int nameLength() {
        return nameEnd - nameStart;
    }

    /** {@code noted} with {@code bit} added, or -1 when an earlier member had it already (a name given twice). */
    public static int noteOnce(int noted, int bit) {
        return (noted & bit) != 0 ? -1 : noted | bit;
    }

    /** Whether a value of any kind is here (checked, moved past). */
    public boolean skipValue() {
        return cursor.skipValue();
    }

    /**
     * The length in bytes, as written between its quotes, of the string here (checked, moved past),
     * or -1 when there is none: 0 exactly when the string is empty.
     */
    public long stringLength() {
        cursor.skipSpace();
        int start = cursor.at;
        return string(false) ? cursor.at - start - 2 : -1;
    }

    /**
     * The string here if it is plain — printable ASCII without escapes, at most {@code maxBytes}
     * long — moved past; else {@code null}, and the scan is over.
     */
    public String plainString(int maxBytes) {
        cursor.skipSpace();
        byte[] bytes = cursor.bytes;
        int i = cursor.at;
        if (i >= cursor.end || bytes[i] != '"') {
            return null;
        }
        int start = ++i;
        int end = Math.min(cursor.end, start + maxBytes + 1);
        for (; i < end; i++) {
            byte b = bytes[i];
            if (b == '"') {
                cursor.at = i + 1;
                return new String(bytes, start, i - start, StandardCharsets.US_ASCII);
            }
            if (b < 0x20 || b > 0x7E || b == '\\') {
                return null;
            }
        }
        return null;
    }

    /** Whether {@code null} is here (moved past if it is). */
    public boolean takeNull() {
        cursor.skipSpace();
        return cursor.is('n') && cursor.literal() == JsonCursor.NULL_LITERAL;
    }

    /**
     * A whole, non-negative number of at most {@value JsonText#MAX_INTEGER_DIGITS} digits here (moved
     * past), or -1 for anything else ({@code -0} included: the parser decides).
     */
    public long count() {
        cursor.skipSpace();
        byte[] bytes = cursor.bytes;
        int i = cursor.at;
        int digits = JsonText.integerDigits(bytes, i, cursor.end);
        if (digits <= 0) {
            return -1;
        }
        long value = 0;
        for (int end = i + digits; i < end; i++) {
            value = value * 10 + (bytes[i] - '0');
        }
        cursor.at = i;
        return value;
    }

    /** Whether only white space is left. */
    public boolean atEnd() {
        return cursor.endOfBody();
    }

    private boolean name() {
        cursor.skipSpace();
        return string(true) && cursor.takeAfterSpace(':');
    }

    // A string starting here (at its quote): checked, moved past; a name keeps its span and may not have escapes.
    private boolean string(boolean name) {
        int after = JsonText.stringEnd(cursor.bytes, cursor.at, cursor.end,
                name ? JsonCursor.MAX_NAME_BYTES : JsonText.MAX_STRING_BYTES, !name);
        if (after < 0) {
            return false;
        }
        if (name) {
            nameStart = cursor.at + 1;
            nameEnd = after - 1;
        }
        cursor.at = after;
        return true;
    }
}
