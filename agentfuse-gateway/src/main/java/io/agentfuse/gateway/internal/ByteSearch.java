package io.agentfuse.gateway.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finding bytes in an array eight at a time (SWAR: one {@code long} read, a few arithmetic steps
 * that flag every byte that matches): the SSE parser looks for each line's end in every byte a
 * provider streams, and the relay for a line break in every event it writes.
 *
 * <p>Stateless and thread-safe.
 */
public final class ByteSearch {

    /** The array read as little-endian {@code long}s at any offset, so the first match is the lowest set bit. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LINE_FEEDS = 0x0A0A0A0A0A0A0A0AL;
    private static final long CARRIAGE_RETURNS = 0x0D0D0D0D0D0D0D0DL;
    private static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;

    private ByteSearch() {
    }

    /** Where the first LF or CR in {@code bytes[from, to)} is; {@code to} if there is none. */
    public static int lineEnd(byte[] bytes, int from, int to) {
        int i = from;
        for (; i <= to - Long.BYTES; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            long found = zeroBytes(word ^ LINE_FEEDS) | zeroBytes(word ^ CARRIAGE_RETURNS);
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        while (i < to && bytes[i] != '\n' && bytes[i] != '\r') {
            i++;
        }
        return i;
    }

    /**
     * The high bit of each byte of {@code word} that is zero, and no other bit: exact, unlike the
     * shorter form whose carries flag a byte after a zero one.
     */
    private static long zeroBytes(long word) {
        return ~(((word & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | word | LOW_SEVEN_BITS);
    }
}
