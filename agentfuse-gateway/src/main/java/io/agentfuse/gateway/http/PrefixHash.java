package io.agentfuse.gateway.http;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The hash of the first bytes of a value in a body, for {@link ValueMemo}'s windows growing one
 * after another: each window takes up where the last one's whole blocks ended, so that a lookup
 * hashes the bytes of its deepest window once. Two lanes of eight bytes, so that their multiplies
 * overlap; the bytes after the last whole block one by one, on a copy of the state. Seeded per
 * process, so that a caller cannot choose values that share a hash without sharing their bytes.
 *
 * <p>Not thread-safe: one per lookup.
 *
 * <pre>{@code
 * PrefixHash prefix = new PrefixHash(bytes, at, end);
 * long key = prefix.upTo(128);      // then, if needed, prefix.upTo(900): 772 bytes more hashed
 * }</pre>
 */
final class PrefixHash {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long SEED = ThreadLocalRandom.current().nextLong() | 1L;
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    private static final int BLOCK = 2 * Long.BYTES;

    private final byte[] bytes;
    private final int at;
    private final int end;
    private long a = SEED;
    private long b = SEED;
    private int hashed;

    /** The bytes from {@code at} on, of a body that ends at {@code end}. */
    PrefixHash(byte[] bytes, int at, int end) {
        this.bytes = bytes;
        this.at = at;
        this.end = end;
        this.hashed = at;
    }

    /** The hash of the first {@code window} bytes, or of all up to the body's end if it ends sooner; windows never shrink. */
    long upTo(int window) {
        int stop = at + Math.min(window, end - at);
        for (; hashed + BLOCK <= stop; hashed += BLOCK) {
            a = mix(a, (long) LONGS.get(bytes, hashed));
            b = mix(b, (long) LONGS.get(bytes, hashed + Long.BYTES));
        }
        long last = a;
        for (int i = hashed; i < stop; i++) {
            last = mix(last, bytes[i]);
        }
        return mix(mix(last, b), stop - at);
    }

    private static long mix(long h, long word) {
        h = (h ^ word) * MULTIPLIER;
        return h ^ (h >>> 29);
    }
}
