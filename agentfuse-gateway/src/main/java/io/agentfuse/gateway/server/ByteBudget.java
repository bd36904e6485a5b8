package io.agentfuse.gateway.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes taken from a fixed limit and given back, without a lock: the mechanics that
 * {@link BodyAllowance} and {@link LargeBodies} share, each with its own limit and its own moment
 * to give back. Thread-safe.
 */
final class ByteBudget {

    private final long limit;
    private final AtomicLong taken = new AtomicLong();

    ByteBudget(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, but was " + limit);
        }
        this.limit = limit;
    }

    /** Takes {@code bytes} if the limit has room for them: whether it did. */
    boolean take(long bytes) {
        long now;
        do {
            now = taken.get();
            if (bytes > limit - now) {
                return false;
            }
        } while (!taken.compareAndSet(now, now + bytes));
        return true;
    }

    /** Gives back {@code bytes} taken before. */
    void giveBack(long bytes) {
        taken.addAndGet(-bytes);
    }

    /** The bytes taken now. */
    long taken() {
        return taken.get();
    }
}
