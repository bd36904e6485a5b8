package io.agentfuse.core;


/**
 * The source of time for every agentfuse component.
 *
 * <p>Every guard takes its clock as a constructor argument, so that tests can drive a
 * {@link ManualClock} and never sleep. {@link #nanoTime()} measures durations and deadlines;
 * {@link #epochMillis()} is only used to report wall-clock instants (for example
 * {@code openUntil} in the admin API).
 *
 * <p>Implementations must be thread-safe and cheap: {@link #nanoTime()} is read on hot paths.
 *
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.of("search", config, Clock.system());
 * }</pre>
 */
public interface Clock {

    /** A monotonic reading in nanoseconds, comparable only with other readings of this clock. */
    long nanoTime();

    /** The wall-clock time in milliseconds since the Unix epoch. */
    long epochMillis();

    /** The wall-clock instant that corresponds to the monotonic reading {@code nanos}. */
    default long epochMillisAt(long nanos) {
        return epochMillis() + Math.floorDiv(nanos - nanoTime(), 1_000_000L);
    }

    /** The system clock: {@link System#nanoTime()} and {@link System#currentTimeMillis()}. */
    static Clock system() {
        return SystemClock.INSTANCE;
    }
}
