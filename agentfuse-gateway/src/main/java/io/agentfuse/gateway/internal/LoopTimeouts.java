package io.agentfuse.gateway.internal;

import io.agentfuse.core.Scheduler;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.vertx.core.Vertx;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.Context;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The timeouts of one event loop, each set with a link and cancelled with an unlink, not a
 * timer of its own. A model call sets timeouts that almost never fire — its guard's limit on the
 * attempt, the call's own — and a Vert.x timer costs a map entry, boxed ids and a task inserted
 * into and removed from the loop's priority queue, twice per request.
 *
 * <p>Timeouts of one delay fall due in the order they were set, so each delay keeps a list in
 * that order with one loop timer armed for its oldest entry: a cancelled timeout is unlinked (the
 * armed timer is left alone), and when the timer fires it runs what is due, oldest first, and
 * re-arms for the new oldest entry. Timeouts therefore fire when they are due, not early and not
 * a tick late. Distinct delays are few (one per configured timeout); at most {@value #MAX_DELAYS}
 * are kept at once, and a timeout of another delay gets no entry ({@link #add} answers
 * {@code null}) so that the caller falls back to an ordinary timer.
 *
 * <p>Confined to its loop's thread: {@link #onCurrentLoop} finds the current loop's instance, and
 * {@link Entry#cancel()} from another thread hands the unlink to the loop.
 *
 * <pre>{@code
 * Scheduler.Cancellable timeout = LoopTimeouts.onCurrentLoop(TimeUnit.SECONDS.toNanos(60), this::timedOut);
 * ...
 * timeout.cancel();
 * }</pre>
 */
public final class LoopTimeouts {

    /** How many distinct delays may be pending at once. */
    static final int MAX_DELAYS = 32;

    private static final FastThreadLocal<LoopTimeouts> OF_THIS_LOOP = new FastThreadLocal<>();

    /** Arms a one-shot callback on the loop. */
    @FunctionalInterface
    interface LoopTimer {
        void arm(Runnable fire, long delayNanos);
    }

    /** Runs a due task; in production, on the context that set it. */
    @FunctionalInterface
    interface Dispatcher {
        void dispatch(Object context, Runnable task);
    }

    private final LongSupplier nanoTime;
    private final LoopTimer timer;
    private final Dispatcher dispatcher;
    private final EventExecutor loop;
    /** The lists of the delays pending, in no order: few, so looked through rather than hashed (no boxed keys). */
    private final DelayList[] byDelay = new DelayList[MAX_DELAYS];
    private int delays;

    /** Timeouts on {@code loop} ({@code null}: the caller's thread is the only one that touches them). */
    LoopTimeouts(LongSupplier nanoTime, LoopTimer timer, Dispatcher dispatcher, EventExecutor loop) {
        this.nanoTime = nanoTime;
        this.timer = timer;
        this.dispatcher = dispatcher;
        this.loop = loop;
    }

    /**
     * Runs {@code task} {@code delayNanos} from now: as one of the current loop's timeouts when the
     * caller is on an event-loop context (see {@link #onCurrentLoop}), else on a Vert.x timer of
     * {@code vertx}, the delay rounded up to whole milliseconds.
     */
    public static Scheduler.Cancellable schedule(Vertx vertx, long delayNanos, Runnable task) {
        Scheduler.Cancellable onLoop = onCurrentLoop(delayNanos, task);
        return onLoop != null ? onLoop : onTimer(vertx, delayNanos, task);
    }

    /**
     * Runs {@code task} {@code delayNanos} from now on a Vert.x timer of {@code vertx}, the delay
     * rounded up to whole milliseconds: for a delay that is not one of a few configured ones.
     */
    public static Scheduler.Cancellable onTimer(Vertx vertx, long delayNanos, Runnable task) {
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos + 999_999));
        long timer = vertx.setTimer(millis, id -> task.run());
        return () -> vertx.cancelTimer(timer);
    }

    /**
     * Runs {@code task} on the current Vert.x event-loop context {@code delayNanos} from now.
     *
     * @return the timeout, or {@code null} when the current thread is not on an event-loop context
     *         or the loop already keeps {@value #MAX_DELAYS} other delays: then use an ordinary timer
     */
    public static Scheduler.Cancellable onCurrentLoop(long delayNanos, Runnable task) {
        Context context = Vertx.currentContext();
        // On the context's own loop thread: not on a worker running blocking code for it.
        if (delayNanos <= 0 || context == null || !context.isEventLoopContext() || !VertxHooks.eventLoop(context).inEventLoop()) {
            return null;
        }
        LoopTimeouts timeouts = OF_THIS_LOOP.get();
        if (timeouts == null) {
            EventLoop loop = VertxHooks.eventLoop(context);
            timeouts = new LoopTimeouts(System::nanoTime,
                    (fire, nanos) -> loop.schedule(fire, nanos, TimeUnit.NANOSECONDS),
                    (owner, due) -> VertxHooks.dispatch((Context) owner, due),
                    loop);
            OF_THIS_LOOP.set(timeouts);
        }
        return timeouts.add(delayNanos, context, task);
    }

    /**
     * Sets {@code task} to run {@code delayNanos} (positive) from now, dispatched with {@code context}.
     *
     * @return the timeout, or {@code null} when {@value #MAX_DELAYS} other delays are pending
     */
    Entry add(long delayNanos, Object context, Runnable task) {
        DelayList list = listOf(delayNanos);
        if (list == null) {
            if (delays == MAX_DELAYS) {
                return null;
            }
            list = new DelayList(delayNanos);
            byDelay[delays++] = list;
        }
        Entry entry = new Entry(this, list, nanoTime.getAsLong() + delayNanos, context, task);
        list.append(entry);
        if (!list.armed) {
            arm(list, delayNanos);
        }
        return entry;
    }

    /** How many timeouts the current thread's loop has pending (for tests). */
    static int pendingOnCurrentLoop() {
        LoopTimeouts timeouts = OF_THIS_LOOP.get();
        return timeouts == null ? 0 : timeouts.pending();
    }

    /** How many timeouts are pending. */
    int pending() {
        int pending = 0;
        for (int i = 0; i < delays; i++) {
            for (Entry entry = byDelay[i].head; entry != null; entry = entry.next) {
                pending++;
            }
        }
        return pending;
    }

    /** How many delays have a list. */
    int delays() {
        return delays;
    }

    private DelayList listOf(long delayNanos) {
        for (int i = 0; i < delays; i++) {
            if (byDelay[i].delay == delayNanos) {
                return byDelay[i];
            }
        }
        return null;
    }

    private void forget(DelayList list) {
        for (int i = 0; i < delays; i++) {
            if (byDelay[i] == list) {
                byDelay[i] = byDelay[--delays];
                byDelay[delays] = null;
                return;
            }
        }
    }

    private void arm(DelayList list, long delayNanos) {
        list.armed = true;
        timer.arm(() -> fire(list), Math.max(0, delayNanos));
    }

    private void fire(DelayList list) {
        // Still armed while the due tasks run: a task that sets a timeout of this delay must not arm a second timer.
        long now = nanoTime.getAsLong();
        while (list.head != null && list.head.deadline - now <= 0) {
            Entry due = list.head;
            list.unlink(due);
            dispatcher.dispatch(due.context, due.task);
        }
        list.armed = false;
        if (list.head != null) {
            arm(list, list.head.deadline - nanoTime.getAsLong());
        } else {
            forget(list); // a delay that is no longer used frees its place
        }
    }

    /** The pending timeouts of one delay, oldest (first due) first. */
    private static final class DelayList {
        final long delay;
        Entry head;
        Entry tail;
        boolean armed;

        DelayList(long delay) {
            this.delay = delay;
        }

        void append(Entry entry) {
            entry.prev = tail;
            if (tail == null) {
                head = entry;
            } else {
                tail.next = entry;
            }
            tail = entry;
        }

        void unlink(Entry entry) {
            if (entry.prev == null) {
                head = entry.next;
            } else {
                entry.prev.next = entry.next;
            }
            if (entry.next == null) {
                tail = entry.prev;
            } else {
                entry.next.prev = entry.prev;
            }
            entry.prev = null;
            entry.next = null;
            entry.list = null;
        }
    }

    /** One pending timeout. */
    static final class Entry implements Scheduler.Cancellable {
        private final LoopTimeouts owner;
        private final long deadline;
        private final Object context;
        private final Runnable task;
        private DelayList list;
        private Entry prev;
        private Entry next;

        Entry(LoopTimeouts owner, DelayList list, long deadline, Object context, Runnable task) {
            this.owner = owner;
            this.list = list;
            this.deadline = deadline;
            this.context = context;
            this.task = task;
        }

        /** Cancels the timeout if it has not run; from another thread, on the loop soon after. */
        @Override
        public void cancel() {
            if (owner.loop != null && !owner.loop.inEventLoop()) {
                try {
                    owner.loop.execute(this::unlink);
                } catch (RejectedExecutionException loopClosed) {
                    // the loop is shut down: none of its timeouts will run
                }
                return;
            }
            unlink();
        }

        private void unlink() {
            if (list != null) {
                list.unlink(this);
            }
        }
    }
}
