package io.agentfuse.gateway.server;

/**
 * How much memory the server sets aside at most for request bodies that are announced but have
 * not arrived yet. A body read into a buffer of its announced size, made when its first byte
 * comes, is copied once; a buffer that grows as the body arrives copies it about twice more. But
 * the size is the peer's word: thirty connections announcing 10 MB and sending one byte each
 * filled a 128 MiB heap. Within the allowance a body gets its whole buffer at once; beyond it, its
 * buffer grows with what arrives, so that memory follows the bytes peers have really sent.
 *
 * <p>The default allowance is an eighth of the heap limit, between 8 MiB and 256 MiB: a 150 KB
 * conversation on each of a hundred connections fits in it at {@code -Xmx128m}.
 *
 * <p>Thread-safe: one per server, shared by its event loops and connections.
 *
 * <pre>{@code
 * BodyAllowance.Reservation reserved = allowance.reserve(length); // null: grow as it arrives
 * ...
 * reserved.release(); // once the body has arrived, or its request ended without it
 * }</pre>
 */
public final class BodyAllowance {

    private static final long MIN_DEFAULT = 8L * 1024 * 1024;
    private static final long MAX_DEFAULT = 256L * 1024 * 1024;

    private final ByteBudget reserved;

    /** An allowance of {@code limit} bytes. */
    public BodyAllowance(long limit) {
        this.reserved = new ByteBudget(limit);
    }

    /** The default allowance: an eighth of this JVM's heap limit, between 8 MiB and 256 MiB. */
    public static BodyAllowance ofHeap() {
        return new BodyAllowance(Math.max(MIN_DEFAULT, Math.min(MAX_DEFAULT, Runtime.getRuntime().maxMemory() / 8)));
    }

    /**
     * Sets {@code bytes} aside for one body.
     *
     * @return the reservation, or {@code null} when the allowance has no room for it
     */
    public Reservation reserve(long bytes) {
        return reserved.take(bytes) ? new Reservation(bytes) : null;
    }

    /** The bytes set aside now. */
    public long reserved() {
        return reserved.taken();
    }

    /** Bytes set aside for one body; released once. Confined to the body's connection. */
    public final class Reservation {
        private long bytes;

        private Reservation(long bytes) {
            this.bytes = bytes;
        }

        /** Gives the bytes back; a second call does nothing. */
        public void release() {
            if (bytes > 0) {
                reserved.giveBack(bytes);
                bytes = 0;
            }
        }
    }
}
