package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.bulkhead.BulkheadFullException;
import io.agentfuse.core.internal.BlockingCall;
import io.agentfuse.core.internal.TimeLeft;
import io.agentfuse.core.timeout.DeadlineExceededException;
import io.agentfuse.core.timeout.Timeout;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The synchronous path of a {@link Guard}: attempts on the caller's thread, waits through the
 * guard's {@link Sleeper}, every decision made by the guard's {@link Attempts} exactly as the
 * asynchronous path makes it. Without a deadline and without an {@link AttemptContext} it takes
 * the same steps, and allocates as little, as before deadlines existed: the deadline is a
 * {@code long} that is never read, and the call is handed over as it came.
 */
final class SyncExecution {

    private SyncExecution() {
    }

    /**
     * Runs {@code call} (a {@code Supplier}, or with {@code callTakesContext} a {@code Function} of
     * its {@link AttemptContext}) under {@code guard} and {@code requestDeadline}.
     */
    static <T> T run(Guard guard, Deadline requestDeadline, AttemptObserver observer, Object call,
                     boolean callTakesContext) {
        Attempts attempts = guard.attempts();
        long policyDeadline = attempts.policyDeadlineFromNow();
        long deadline = attempts.deadlineOf(policyDeadline, requestDeadline);
        if (deadline != TimeLeft.NO_DEADLINE && TimeLeft.remaining(deadline, guard.clock().nanoTime()) == 0L) {
            throw DeadlineExceededException.beforeCalling(guard.name());
        }
        long previousDelay = attempts.firstDelayNanos();
        AttemptResult last = null;
        Throwable lastFailure = null;
        T lastValue = null;
        for (int attempt = 1; ; attempt++) {
            long permit;
            try {
                permit = acquire(guard);
            } catch (CircuitOpenException | BulkheadFullException rejected) {
                if (last != null && last.cause() == null) {
                    return lastValue; // the call was made and answered; a refused retry does not undo that
                }
                Throwable stopped = Attempts.stopped(lastFailure, rejected);
                if (stopped instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) stopped;
            }
            if (attempt == 1) {
                attempts.depositToBudget();
            }
            SyncAttempt context = callTakesContext ? new SyncAttempt(guard, observer, requestDeadline, attempt) : null;
            Clock timer = attempts.timer();
            long start = timer == null ? 0L : timer.nanoTime();
            if (context != null) {
                context.started(timer, start, attempts.attemptLimitNanos(deadline));
            }
            T result;
            try {
                result = invoke(guard, call, context, deadline);
            } catch (RuntimeException | Error failure) {
                releaseBulkhead(guard);
                AttemptResult failed = attempts.failed(permit, failure, Attempts.elapsedSince(timer, start),
                        context == null || !context.sampled());
                Attempts.report(observer, failed);
                long delay = attempts.nextDelayNanos(attempt, previousDelay, failed, policyDeadline, deadline);
                if (delay < 0) {
                    throw failure;
                }
                sleep(guard, delay, failure);
                previousDelay = delay;
                last = failed;
                lastFailure = failure;
                continue;
            }
            releaseBulkhead(guard);
            // Outside the try: a result rule or token counter that throws is not the call's failure.
            long elapsed = Attempts.elapsedSince(timer, start);
            AttemptResult returned = attempts.returned(permit, result, elapsed, context == null || !context.sampled());
            Attempts.reportReturned(observer, returned, elapsed);
            long delay = returned == null ? -1 : attempts.nextDelayNanos(attempt, previousDelay, returned, policyDeadline, deadline);
            if (delay < 0) {
                return result;
            }
            sleep(guard, delay, null);
            previousDelay = delay;
            last = returned;
            lastFailure = null;
            lastValue = result;
        }
    }

    /** A hedged synchronous call: the asynchronous path, its attempts on the policy's executor, awaited here. */
    static <T> T hedged(Guard guard, Deadline deadline, AttemptObserver observer,
                        Function<? super AttemptContext, ? extends T> call) {
        Executor executor = guard.hedgePolicy().executor();
        Function<AttemptContext, CompletionStage<T>> onExecutor =
                attempt -> BlockingCall.start(() -> call.apply(attempt), executor);
        return BlockingCall.await(new AsyncExecution<T>(guard, deadline, observer, onExecutor, true).start());
    }

    /** Waits {@code delayNanos} before a retry with the guard's sleeper; an interrupt ends the call with {@code cause}. */
    private static void sleep(Guard guard, long delayNanos, Throwable cause) {
        try {
            guard.sleeper().sleep(delayNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("interrupted while waiting to retry " + guard.name(), e);
        }
    }

    /** The call itself, within its limit: the timeout, cut to the deadline when there is one. */
    @SuppressWarnings("unchecked")
    private static <T> T invoke(Guard guard, Object call, SyncAttempt context, long deadline) {
        Supplier<T> supplier = context == null ? (Supplier<T>) call
                : () -> ((Function<? super AttemptContext, ? extends T>) call).apply(context);
        Timeout timeout = guard.timeout();
        if (deadline == TimeLeft.NO_DEADLINE) {
            return timeout == null ? supplier.get() : timeout.call(supplier);
        }
        long limit = guard.attempts().attemptLimitNanos(deadline);
        return timeout != null ? timeout.call(supplier, limit)
                : Timeout.callWithin(supplier, limit, guard.scheduler(), null);
    }

    /** Takes the breaker's permit and a bulkhead place; throws the rejection if either refuses. */
    private static long acquire(Guard guard) {
        long permit = guard.circuitBreaker() == null ? Attempts.NO_BREAKER : guard.circuitBreaker().acquirePermission();
        Bulkhead bulkhead = guard.bulkhead();
        if (bulkhead != null) {
            try {
                bulkhead.acquire();
            } catch (BulkheadFullException full) {
                guard.attempts().release(permit);
                throw full;
            }
        }
        return permit;
    }

    private static void releaseBulkhead(Guard guard) {
        if (guard.bulkhead() != null) {
            guard.bulkhead().release();
        }
    }

    /** The context of one synchronous attempt, made only for a call that takes one. */
    private static final class SyncAttempt implements AttemptContext {
        private final Guard guard;
        private final AttemptObserver observer;
        private final Deadline deadline;
        private final int number;
        private Clock timer;
        private long start;
        private long limitAt = TimeLeft.NO_DEADLINE;
        private volatile boolean sampled;

        SyncAttempt(Guard guard, AttemptObserver observer, Deadline deadline, int number) {
            this.guard = guard;
            this.observer = observer;
            this.deadline = deadline;
            this.number = number;
        }

        void started(Clock timer, long start, long limitNanos) {
            this.timer = timer;
            this.start = start;
            if (limitNanos != TimeLeft.NO_DEADLINE) {
                limitAt = TimeLeft.deadlineAfter(guard.clock().nanoTime(), limitNanos);
            }
        }

        boolean sampled() {
            return sampled;
        }

        @Override
        public int attempt() {
            return number;
        }

        @Override
        public boolean isHedge() {
            return false;
        }

        @Override
        public long timeLeftNanos() {
            return limitAt == TimeLeft.NO_DEADLINE ? TimeLeft.NO_DEADLINE : TimeLeft.remaining(limitAt, guard.clock().nanoTime());
        }

        @Override
        public Deadline deadline() {
            return deadline;
        }

        @Override
        public synchronized void firstContent() {
            if (!sampled) {
                sampled = true;
                guard.attempts().sampleLatency(Attempts.elapsedSince(timer, start));
                if (observer != null) {
                    observer.onFirstContent(this);
                }
            }
        }
    }
}
