package io.agentfuse.gateway.internal;

import io.agentfuse.core.Scheduler;
import io.agentfuse.gateway.GatewayVertx;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loop's timeouts on a fake clock and a hand-fired loop timer: what fires when, and how many
 * loop timers it takes. One test runs them on a real event loop.
 */
class LoopTimeoutsTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private long now = 1_000 * SECOND;
    private final List<Armed> armed = new ArrayList<>();
    private final List<String> ran = new ArrayList<>();
    private final LoopTimeouts timeouts = new LoopTimeouts(() -> now, (fire, nanos) -> armed.add(new Armed(fire, now + nanos)),
            (context, task) -> task.run(), null);
    private Vertx vertx;

    @AfterEach
    void close() throws Exception {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTimeoutRunsWhenItIsDueAndNotBefore() {
        // Given a timeout of 30 s
        timeouts.add(30 * SECOND, null, () -> ran.add("a"));

        // When the loop timer fires a little early (it may not), nothing runs; at 30 s it does
        advanceTo(now + 30 * SECOND - 1);
        fireDue();
        assertThat(ran).isEmpty();
        advanceTo(now + 1);
        fireDue();

        // Then it ran once, and nothing is left
        assertThat(ran).containsExactly("a");
        assertThat(timeouts.pending()).isZero();
        assertThat(timeouts.delays()).isZero();
    }

    @Test
    void timeoutsOfOneDelayShareOneLoopTimerAndFireInTheOrderTheyWereSet() {
        // Given three timeouts of 10 s set one second apart
        timeouts.add(10 * SECOND, null, () -> ran.add("first"));
        now += SECOND;
        timeouts.add(10 * SECOND, null, () -> ran.add("second"));
        now += SECOND;
        timeouts.add(10 * SECOND, null, () -> ran.add("third"));

        // Then one loop timer is armed, for the first
        assertThat(armed).hasSize(1);

        // When time passes to each deadline in turn
        advanceTo(1_010 * SECOND);
        fireDue();
        assertThat(ran).containsExactly("first");
        advanceTo(1_012 * SECOND);
        fireDue();

        // Then each ran at its own deadline, re-arming once for the next
        assertThat(ran).containsExactly("first", "second", "third");
        assertThat(armed).isEmpty();
    }

    @Test
    void aCancelledTimeoutNeverRunsAndTheOthersStillDo() {
        // Given two timeouts of 5 s, the first cancelled before it is due
        Scheduler.Cancellable first = timeouts.add(5 * SECOND, null, () -> ran.add("first"));
        now += SECOND;
        timeouts.add(5 * SECOND, null, () -> ran.add("second"));
        first.cancel();

        // When the timer armed for the first fires, and later the one re-armed for the second
        advanceTo(1_005 * SECOND);
        fireDue();
        assertThat(ran).isEmpty();
        advanceTo(1_006 * SECOND);
        fireDue();

        // Then only the second ran; cancelling again, or after it ran, does nothing
        assertThat(ran).containsExactly("second");
        first.cancel();
        assertThat(timeouts.pending()).isZero();
    }

    @Test
    void aTaskThatSetsATimeoutOfItsOwnDelayArmsNoSecondTimer() {
        // Given a timeout whose task sets another of the same delay (a retry timed like its attempt)
        timeouts.add(2 * SECOND, null, () -> timeouts.add(2 * SECOND, null, () -> ran.add("again")));

        // When it fires
        advanceTo(1_002 * SECOND);
        fireDue();

        // Then exactly one timer is armed, for the new timeout, which runs in turn
        assertThat(armed).hasSize(1);
        advanceTo(1_004 * SECOND);
        fireDue();
        assertThat(ran).containsExactly("again");
    }

    @Test
    void beyondTheLimitOfDistinctDelaysATimeoutGetsNoEntrySoThatTheCallerUsesAPlainTimer() {
        // Given as many distinct delays pending as a loop keeps
        for (int i = 1; i <= LoopTimeouts.MAX_DELAYS; i++) {
            assertThat(timeouts.add(i * SECOND, null, () -> { })).isNotNull();
        }

        // Then one more delay is refused, while another timeout of a kept delay is not
        assertThat(timeouts.add(1_000 * SECOND, null, () -> { })).isNull();
        assertThat(timeouts.add(SECOND, null, () -> { })).isNotNull();

        // And once a delay's timeouts are done, its place is free again
        advanceTo(now + SECOND);
        fireDue();
        assertThat(timeouts.add(1_000 * SECOND, null, () -> { })).isNotNull();
    }

    @Test
    void onAnEventLoopATimeoutRunsOnTheContextThatSetItAndCanBeCancelledFromAnotherThread() throws Exception {
        // Given a real event-loop context
        vertx = GatewayVertx.create();
        Context context = vertx.getOrCreateContext();
        CompletableFuture<Boolean> ranOnItsContext = new CompletableFuture<>();
        CompletableFuture<Scheduler.Cancellable> cancelled = new CompletableFuture<>();
        CompletableFuture<Boolean> offLoop = new CompletableFuture<>();
        CompletableFuture<Integer> pendingAfterCancel = new CompletableFuture<>();

        // When it sets one timeout of 20 ms, and one of a minute that this test thread cancels
        context.runOnContext(v -> {
            LoopTimeouts.onCurrentLoop(TimeUnit.MILLISECONDS.toNanos(20),
                    () -> ranOnItsContext.complete(Vertx.currentContext() == context && Context.isOnEventLoopThread()));
            cancelled.complete(LoopTimeouts.onCurrentLoop(TimeUnit.MINUTES.toNanos(1), () -> { }));
        });
        cancelled.get(10, TimeUnit.SECONDS).cancel();
        offLoop.complete(LoopTimeouts.onCurrentLoop(SECOND, () -> { }) == null);

        // Then the first ran on the context that set it, and once it has, the cancelled one is gone
        // (the cancel was handed to the loop before this look at it); off the loop there is no entry to be had
        assertThat(ranOnItsContext.get(10, TimeUnit.SECONDS)).isTrue();
        context.runOnContext(v -> pendingAfterCancel.complete(LoopTimeouts.pendingOnCurrentLoop()));
        assertThat(pendingAfterCancel.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(offLoop.get()).isTrue();
    }

    @Test
    void blockingCodeOfAnEventLoopContextGetsNoEntryOnItsWorkerThread() throws Exception {
        // Given blocking code that an event-loop context hands to a worker (it sees that context as current)
        vertx = GatewayVertx.create();
        Context context = vertx.getOrCreateContext();
        CompletableFuture<Boolean> noEntry = new CompletableFuture<>();

        // When it asks for a timeout on the current loop
        context.runOnContext(v -> vertx.executeBlocking(() -> {
            noEntry.complete(Vertx.currentContext() == context && LoopTimeouts.onCurrentLoop(SECOND, () -> { }) == null);
            return null;
        }));

        // Then it gets none (the loop's lists are the loop thread's alone), so it falls back to a Vert.x timer
        assertThat(noEntry.get(10, TimeUnit.SECONDS)).isTrue();
    }

    private void advanceTo(long nanos) {
        now = nanos;
    }

    /** Fires the armed loop timers due within a millisecond: up to that early, which the timeouts must tolerate. */
    private void fireDue() {
        List<Armed> due = armed.stream().filter(timer -> timer.at - now < SECOND / 1_000).toList();
        armed.removeAll(due);
        due.forEach(timer -> timer.fire.run());
    }

    private record Armed(Runnable fire, long at) {
    }
}
