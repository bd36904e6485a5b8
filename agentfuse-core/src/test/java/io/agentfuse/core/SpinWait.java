package io.agentfuse.core;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waits, without sleeping, until another thread has reached a state the test can observe (for
 * example: parked in a bulkhead queue). The generous limit only stops a broken test from hanging;
 * no test asserts how long anything took.
 */
public final class SpinWait {

    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private SpinWait() {
    }

    /** Returns once {@code condition} holds; fails the test naming {@code what} if it never does. */
    public static void until(BooleanSupplier condition, String what) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > LIMIT_NANOS) {
                throw new AssertionError("never happened: " + what);
            }
            Thread.yield();
        }
    }
}
