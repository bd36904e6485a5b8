package io.agentfuse.gateway.http;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One {@code String} for each short field name the decoder meets again, so that a decoded object's
 * keys come with their hash already computed: a fresh key is hashed when the decoder puts it into
 * its map, and each time the parser's lookups compare against it, which was a fifth of decoding
 * and parsing a small request (JMH {@code SmallRequestBench.decodeAndParse}, async-profiler:
 * {@code HashMap.hash} 15 %). Requests repeat a few dozen names ({@code model}, {@code messages},
 * {@code role}, {@code content}, a tool schema's), as Jackson's symbol table knows.
 *
 * <p>A fixed table of {@value #SLOTS} slots, one name each, indexed by a hash of the name's
 * bytes; a name whose slot holds another replaces it. Bounded whatever a peer sends: at most
 * {@value #SLOTS} names of at most {@value #MAX_BYTES} bytes. Names are not interned: a peer
 * choosing names must not grow the JVM's string table.
 *
 * <p>Thread-safe without locks: a slot holds an immutable {@link Name}, published racily (its
 * fields are final); a race costs a miss, never a wrong name.
 */
final class FieldNames {

    /** Longer names are decoded afresh every time. */
    static final int MAX_BYTES = 32;
    private static final int SLOT_BITS = 10;
    private static final int SLOTS = 1 << SLOT_BITS;
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final Name[] TABLE = new Name[SLOTS];

    private record Name(byte[] bytes, String string) {
    }

    private FieldNames() {
    }

    /**
     * The name spelled by {@code bytes[from, to)}, at most {@value #MAX_BYTES} bytes of plain ASCII
     * (no control character, quote or backslash: the caller checked): the same {@code String} as
     * the last time these bytes were asked for, if no other name took the slot since.
     */
    static String of(byte[] bytes, int from, int to) {
        int slot = slot(bytes, from, to);
        Name known = TABLE[slot];
        if (known != null && Arrays.equals(known.bytes, 0, known.bytes.length, bytes, from, to)) {
            return known.string;
        }
        String name = new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
        TABLE[slot] = new Name(Arrays.copyOfRange(bytes, from, to), name);
        return name;
    }

    // A multiplicative hash of the name's first and last eight bytes (or all of a shorter one) and its length.
    private static int slot(byte[] bytes, int from, int to) {
        int length = to - from;
        long word;
        if (length >= Long.BYTES) {
            word = (long) LONGS.get(bytes, from) ^ Long.rotateLeft((long) LONGS.get(bytes, to - Long.BYTES), 29);
        } else {
            word = 0;
            for (int i = from; i < to; i++) {
                word = word << 8 | bytes[i] & 0xFF;
            }
        }
        return (int) (((word + length) * MULTIPLIER) >>> (Long.SIZE - SLOT_BITS));
    }
}
