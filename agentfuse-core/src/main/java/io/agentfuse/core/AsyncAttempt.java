package io.agentfuse.core;

import io.agentfuse.core.internal.TimeLeft;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.timeout.DeadlineExceededException;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;

/**
 * One attempt of an {@link AsyncExecution}, and the {@link AttemptContext} its call sees. It ends
 * once, by whichever comes first: its call's answer, its limit (the timeout cut to the deadline),
 * or its race's decision that it lost ({@link #abandon()}). The limit cancels the call (which
 * aborts its work) and the call's late answer is ignored; an answer cancels the timer. One object
 * per attempt instead of a second future around the call only to race it against the timer.
 */
final class AsyncAttempt<T> extends AtomicBoolean implements BiConsumer<T, Throwable>, Runnable, AttemptContext {

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<AsyncAttempt> FIRST_CONTENT =
            AtomicIntegerFieldUpdater.newUpdater(AsyncAttempt.class, "firstContent");

    final long permit;
    private final AsyncExecution<T> execution;
    private final int number;
    private final boolean hedge;
    private Clock timer;
    private long start;
    private long limitNanos;
    /** The monotonic time of the limit on the guard's clock, read only by a call that asks for its time left. */
    private long limitAt = TimeLeft.NO_DEADLINE;
    /** The race of its try under a hedge policy, set before it starts; {@code null} otherwise. */
    AttemptRace<T> race;
    /** Set when its first content was sampled for latency, so its end is not sampled again. */
    volatile boolean sampledAtFirstContent;
    private volatile int firstContent;
    private volatile CompletableFuture<T> call;
    /** Set before the call's completion is followed, so whoever ends the attempt sees it. */
    private Scheduler.Cancellable limit;

    AsyncAttempt(AsyncExecution<T> execution, long permit, int number, boolean hedge) {
        this.execution = execution;
        this.permit = permit;
        this.number = number;
        this.hedge = hedge;
    }

    /** Calls, arms the limit and follows the call to its end. */
    void start() {
        Attempts attempts = execution.attempts();
        Guard guard = execution.guard();
        limitNanos = attempts.attemptLimitNanos(execution.deadline());
        timer = attempts.timer();
        start = timer == null ? 0L : timer.nanoTime();
        if (limitNanos != TimeLeft.NO_DEADLINE && execution.callTakesContext()) {
            limitAt = TimeLeft.deadlineAfter(guard.clock().nanoTime(), limitNanos);
        }
        CompletableFuture<T> started;
        try {
            started = execution.call(this).toCompletableFuture();
        } catch (RuntimeException | Error thrown) {
            started = CompletableFuture.failedFuture(thrown);
        }
        call = started;
        if (execution.isCancelled() || get()) {
            started.cancel(true); // cancelled or abandoned before the call was known to whoever gave up on it
        }
        if (limitNanos != TimeLeft.NO_DEADLINE && !started.isDone()) {
            limit = guard.scheduler().schedule(this, limitNanos);
        }
        started.whenComplete(this);
    }

    /** The call ended. */
    @Override
    public void accept(T value, Throwable error) {
        Scheduler.Cancellable armed = limit;
        if (armed != null) {
            armed.cancel();
        }
        if (compareAndSet(false, true)) {
            execution.finishOrFail(this, value, error, Attempts.elapsedSince(timer, start));
        }
    }

    /** The limit passed before the call ended. */
    @Override
    public void run() {
        if (compareAndSet(false, true)) {
            call.cancel(true);
            Attempts attempts = execution.attempts();
            RuntimeException timedOut = attempts.cutByDeadline(limitNanos)
                    ? DeadlineExceededException.cut(Duration.ofNanos(limitNanos))
                    : new CallTimeoutException(execution.guard().timeout().duration());
            execution.finishOrFail(this, null, timedOut, Attempts.elapsedSince(timer, start));
        }
    }

    /** Its race was won by the other attempt: ends it unjudged, cancelling its call. */
    void abandon() {
        if (compareAndSet(false, true)) {
            Scheduler.Cancellable armed = limit;
            if (armed != null) {
                armed.cancel();
            }
            cancelCall();
            execution.abandoned(this);
        }
    }

    /** Cancels the call, if it has started. */
    void cancelCall() {
        CompletableFuture<T> started = call;
        if (started != null) {
            started.cancel(true);
        }
    }

    @Override
    public int attempt() {
        return number;
    }

    @Override
    public boolean isHedge() {
        return hedge;
    }

    @Override
    public long timeLeftNanos() {
        return limitAt == TimeLeft.NO_DEADLINE ? TimeLeft.NO_DEADLINE
                : TimeLeft.remaining(limitAt, execution.guard().clock().nanoTime());
    }

    @Override
    public Deadline deadline() {
        return execution.requestDeadline();
    }

    @Override
    public void firstContent() {
        if (FIRST_CONTENT.compareAndSet(this, 0, 1) && !get()) {
            execution.firstContent(this, Attempts.elapsedSince(timer, start));
        }
    }

    @Override
    public String toString() {
        return "attempt " + number + (hedge ? " (hedge)" : "") + " of " + execution.guard().name();
    }
}
