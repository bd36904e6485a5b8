package io.agentfuse.core;

import io.agentfuse.core.internal.Checks;
import io.agentfuse.core.internal.TimeLeft;

import java.time.Duration;
import java.util.Objects;

/**
 * The instant by which a whole request must be answered, across every attempt, retry wait,
 * fallback step and hedge (docs/design.md §13): an absolute point on a {@link Clock}, fixed when the
 * request starts and handed to everything that works for it.
 *
 * <p>What it bounds: a retry wait, a fallback step or a hedge that cannot fit the time left
 * (judged by the step's recent median latency, {@link LatencyEstimate}) is not started, and the
 * request ends at once with its last error, or with a
 * {@link io.agentfuse.core.timeout.DeadlineExceededException} when nothing was called; every
 * attempt that is started has its timeout cut to the time left, so none outlives the deadline.
 * {@link #none()} bounds nothing and is what the forms without a deadline use: it costs nothing.
 *
 * <p>Immutable and thread-safe. A deadline compares itself with any clock by the time it has left,
 * so a guard on another clock (another view of the same time) still reads it right.
 *
 * <pre>{@code
 * Deadline deadline = Deadline.after(Duration.ofSeconds(30), clock);      // the model's deadline
 * deadline = deadline.sooner(Deadline.after(Duration.ofSeconds(10), clock)); // a caller may only shorten it
 * String answer = guard.execute(deadline, () -> client.complete(prompt));
 * FallbackResult<String> result = chain.execute(prompt, deadline);
 * }</pre>
 */
public final class Deadline {

    private static final Deadline NONE = new Deadline(TimeLeft.NO_DEADLINE, null);

    private final long nanoTime;
    private final Clock clock;

    private Deadline(long nanoTime, Clock clock) {
        this.nanoTime = nanoTime;
        this.clock = clock;
    }

    /** No deadline: nothing is cut or refused for lack of time. */
    public static Deadline none() {
        return NONE;
    }

    /** The deadline {@code timeLeft} from now on {@code clock}; {@code timeLeft} must be positive (at most 100 years). */
    public static Deadline after(Duration timeLeft, Clock clock) {
        Checks.positive("deadline", timeLeft);
        Objects.requireNonNull(clock, "clock");
        return new Deadline(TimeLeft.deadlineAfter(clock.nanoTime(), timeLeft.toNanos()), clock);
    }

    /** The deadline at the monotonic reading {@code nanoTime} of {@code clock} (it may have passed already). */
    public static Deadline at(long nanoTime, Clock clock) {
        Objects.requireNonNull(clock, "clock");
        return new Deadline(nanoTime == TimeLeft.NO_DEADLINE ? TimeLeft.NO_DEADLINE - 1 : nanoTime, clock);
    }

    /** Whether this is {@link #none()}. */
    public boolean isNone() {
        return clock == null;
    }

    /** The time left now, never negative; {@link Long#MAX_VALUE} for {@link #none()}. */
    public long remainingNanos() {
        return clock == null ? TimeLeft.NO_DEADLINE : TimeLeft.remaining(nanoTime, clock.nanoTime());
    }

    /** The time left now, never negative; {@code null} for {@link #none()}. */
    public Duration remaining() {
        return clock == null ? null : Duration.ofNanos(remainingNanos());
    }

    /** Whether the deadline has passed (never, for {@link #none()}). */
    public boolean hasPassed() {
        return clock != null && remainingNanos() == 0L;
    }

    /** The sooner of this deadline and {@code other}: how a caller shortens a deadline, never lengthens it. */
    public Deadline sooner(Deadline other) {
        Objects.requireNonNull(other, "other");
        if (other.isNone()) {
            return this;
        }
        if (isNone()) {
            return other;
        }
        return other.remainingNanos() < remainingNanos() ? other : this;
    }

    /**
     * This deadline as a monotonic reading of {@code on}: exact on its own clock, and by the time
     * left on another; {@link Long#MAX_VALUE} for {@link #none()}.
     */
    public long nanoTimeOn(Clock on) {
        if (clock == null) {
            return TimeLeft.NO_DEADLINE;
        }
        return on == clock ? nanoTime : TimeLeft.deadlineAfter(on.nanoTime(), remainingNanos());
    }

    /** The clock this deadline was set on; {@code null} for {@link #none()}. */
    public Clock clock() {
        return clock;
    }

    @Override
    public String toString() {
        return clock == null ? "Deadline[none]" : "Deadline[" + Duration.ofNanos(remainingNanos()) + " left]";
    }
}
