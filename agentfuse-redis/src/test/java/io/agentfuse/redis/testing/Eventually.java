package io.agentfuse.redis.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, for tests whose effect arrives over the network. */
public final class Eventually {

    private Eventually() {
    }

    /** Returns as soon as {@code condition} holds; fails naming {@code what} if it does not within {@code within}. */
    public static void await(String what, Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + within + ": " + what);
            }
            // a short pause between looks, not a guess at how long the effect takes
            LockSupport.parkNanos(2_000_000L);
        }
    }
}
