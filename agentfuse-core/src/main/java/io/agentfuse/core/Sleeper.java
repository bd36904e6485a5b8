package io.agentfuse.core;

/**
 * Waits on the calling thread: how a synchronous retry spends its backoff. Injected so that tests
 * wait on a {@link ManualClock} (whose {@link ManualClock#sleep(long)} just advances time) rather
 * than on the wall clock.
 *
 * <pre>{@code
 * Guard guard = Guard.builder("model").sleeper(clock::sleep).clock(clock).build();
 * }</pre>
 */
@FunctionalInterface
public interface Sleeper {

    /** Waits {@code nanos} nanoseconds; returns early only by throwing on interruption. */
    void sleep(long nanos) throws InterruptedException;

    /** {@link Thread#sleep(long, int)}. */
    static Sleeper system() {
        return nanos -> {
            if (nanos > 0) {
                Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
            }
        };
    }
}
