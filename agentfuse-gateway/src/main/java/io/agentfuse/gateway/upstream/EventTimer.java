package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The one timer of a streamed call's events ({@link StreamTimeouts}): first the limit on the wait
 * for the answer to begin, then, once it has begun, the limit on the silence between two events.
 * The idle deadline moves with each event without re-setting the timer: when it fires early it is
 * set again for what is left (as Netty's idle handler does). The first-event timer, when due no
 * later than the first idle deadline, goes on as the idle timer: one timer for most streams.
 *
 * <p>Confined to the call's context: {@code onContext} runs a fired timer's work there. Time is
 * {@code nanoTime}'s ({@link System#nanoTime()} in the gateway).
 */
final class EventTimer {

    private final Scheduler timers;
    private final LongSupplier nanoTime;
    private final StreamTimeouts timeouts;
    private final Consumer<Runnable> onContext;
    private final Consumer<CallTimeoutException> expired;
    private Scheduler.Cancellable timer;
    /** The number of the timer set last: one that fires with another was stopped or replaced. */
    private int armed;
    /** Whether the answer began: {@link #timer}, if set, keeps the idle limit. */
    private boolean idle;
    /** When the last event came, or when reading resumed. */
    private long lastEventNanos;

    /** @param expired told (once, on the call's context) which limit passed */
    EventTimer(Scheduler timers, LongSupplier nanoTime, StreamTimeouts timeouts, Consumer<Runnable> onContext,
               Consumer<CallTimeoutException> expired) {
        this.timers = timers;
        this.nanoTime = nanoTime;
        this.timeouts = timeouts;
        this.onContext = onContext;
        this.expired = expired;
    }

    /** The request is sent: the first-event limit runs from now. */
    void start() {
        timer = schedule(timeouts.firstEvent().toNanos());
    }

    /** An event came; {@code answerBegun}: the answer has begun (this event or an earlier one). */
    void event(boolean answerBegun) {
        lastEventNanos = nanoTime.getAsLong();
        if (answerBegun && !idle && timer != null) {
            idle = true;
            if (timeouts.firstEvent().compareTo(timeouts.idle()) > 0) {
                timer.cancel();
                timer = schedule(timeouts.idle().toNanos());
            }
        }
    }

    /** Reading resumed after {@link #stop()}: the idle limit runs from now. */
    void resume() {
        stop();
        idle = true;
        lastEventNanos = nanoTime.getAsLong();
        timer = schedule(timeouts.idle().toNanos());
    }

    /** No limit runs (the call paused or is done) until {@link #resume()}. */
    void stop() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    private Scheduler.Cancellable schedule(long delayNanos) {
        int number = ++armed;
        return timers.schedule(() -> onContext.accept(() -> fired(number)), delayNanos);
    }

    private void fired(int number) {
        if (number != armed || timer == null) {
            return; // stopped, or replaced, after it fired
        }
        timer = null;
        if (!idle) {
            expired.accept(StreamTimeoutException.firstEvent(timeouts.firstEvent()));
            return;
        }
        long left = timeouts.idle().toNanos() - (nanoTime.getAsLong() - lastEventNanos);
        if (left <= 0) {
            expired.accept(StreamTimeoutException.idle(timeouts.idle()));
        } else {
            timer = schedule(left);
        }
    }
}
