package io.agentfuse.redis;

import io.agentfuse.core.breaker.shared.ProbeLease;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Lease answers that wait for the probe of the instance holding the lease: an instance that asks
 * while another holds it is answered with that probe's result (a close, or a new trip) if it
 * reaches the store within the wait, and is told the lease is held elsewhere only after it.
 *
 * <p>Why: the holder closes the breaker the moment its probe succeeds and answers its caller, while
 * its close reaches Redis a round trip later; an instance whose own open time ran out in between
 * asked Redis first, found the lease still held and refused its call, though the fleet was closed
 * (its caller may well have seen the probe's answer). Redis cannot know of the close before the
 * holder tells it, so the answer waits for it: a few milliseconds when the probe has just ended,
 * and at most the wait, bounded by the lease's own remaining time, when it goes on. A change that
 * reached the store before the answer did is that answer at once.
 *
 * <p>Thread-safe: answers are made on the store's thread, changes arrive on it, and the store's
 * close may come from any thread.
 */
final class ProbeResultWaits {

    private final ScheduledExecutorService thread;
    private final Duration wait;
    private final long waitMillis;
    private final Map<String, List<Waiting>> waiting = new HashMap<>();
    /**
     * The newest change of each breaker whose lease is being asked for that reached the store meanwhile.
     * A change and a lease answer come on two connections: the holder's close may be read here before
     * the answer Redis gave just ahead of it, and an answer waiting for that close would wait the whole
     * wait for it. A change that came before the request was sent is none of this: Redis ran it first
     * and answers with it itself. So only breakers with a request on its way are kept (what the channel
     * brings of any other breaker, however many names a fleet or a stranger publishes, is not).
     */
    private final Map<String, SharedBreakerState> newest = new HashMap<>();
    /** How many lease requests of each breaker are on their way to Redis or waiting here. */
    private final Map<String, Integer> asking = new HashMap<>();
    private boolean closed;

    /** One answer waiting: the asker's version, what is left of the other's lease, and where the answer goes. */
    private record Waiting(long seenVersion, long remainingMillis, CompletableFuture<ProbeLease> answer) {
    }

    ProbeResultWaits(ScheduledExecutorService thread, Duration wait) {
        this.thread = thread;
        this.wait = wait;
        this.waitMillis = wait.toMillis();
    }

    /** How long an answer waits for the holder's probe result, as the store was built with. */
    Duration waitTime() {
        return wait;
    }

    /**
     * The lease request of {@code breaker} that {@code request} sends, with the changes of the breaker
     * that reach the store kept until it has its answer (or failed).
     */
    CompletionStage<ProbeLease> whileAsked(String breaker, Supplier<CompletionStage<ProbeLease>> request) {
        synchronized (this) {
            asking.merge(breaker, 1, Integer::sum);
        }
        CompletionStage<ProbeLease> answer;
        try {
            answer = request.get();
        } catch (RuntimeException notSent) {
            answered(breaker);
            throw notSent;
        }
        return answer.whenComplete((lease, failure) -> answered(breaker));
    }

    private synchronized void answered(String breaker) {
        if (asking.merge(breaker, -1, Integer::sum) <= 0) {
            asking.remove(breaker);
            newest.remove(breaker);
        }
    }

    /**
     * The answer to an asker that saw {@code seenVersion} of {@code breaker}, whose lease another
     * instance holds for {@code remainingMillis} more: that instance's next change if it comes within
     * the wait, else {@link ProbeLease#heldElsewhere} for what is left of its lease then.
     */
    synchronized CompletionStage<ProbeLease> heldElsewhere(String breaker, long seenVersion, long remainingMillis) {
        SharedBreakerState arrived = newest.get(breaker);
        if (arrived != null && arrived.version() > seenVersion) {
            return CompletableFuture.completedFuture(ProbeLease.superseded(Optional.of(arrived)));
        }
        long wait = Math.min(waitMillis, remainingMillis);
        if (wait <= 0 || closed) {
            return CompletableFuture.completedFuture(ProbeLease.heldElsewhere(remainingMillis));
        }
        Waiting one = new Waiting(seenVersion, remainingMillis, new CompletableFuture<>());
        waiting.computeIfAbsent(breaker, name -> new ArrayList<>(2)).add(one);
        try {
            thread.schedule(() -> waited(breaker, one, wait), wait, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // the store is closing: it stopped its thread, and close() answers every request still waiting
        }
        return one.answer();
    }

    /** The fleet's change {@code state} reached the store: the answers waiting for a newer change than theirs get it. */
    void changed(SharedBreakerState state) {
        List<Waiting> answered = new ArrayList<>(0);
        synchronized (this) {
            if (asking.containsKey(state.breaker())) {
                newest.merge(state.breaker(), state, (known, next) -> next.version() > known.version() ? next : known);
            }
            List<Waiting> forBreaker = waiting.get(state.breaker());
            if (forBreaker == null) {
                return;
            }
            for (Waiting one : forBreaker) {
                if (state.version() > one.seenVersion()) {
                    answered.add(one);
                }
            }
            forBreaker.removeAll(answered);
            if (forBreaker.isEmpty()) {
                waiting.remove(state.breaker());
            }
        }
        answered.forEach(one -> one.answer().complete(ProbeLease.superseded(Optional.of(state))));
    }

    /** No change came within the wait: the lease is held elsewhere, for what was left of it less the wait. */
    private void waited(String breaker, Waiting one, long wait) {
        synchronized (this) {
            List<Waiting> forBreaker = waiting.get(breaker);
            if (forBreaker == null || !forBreaker.remove(one)) {
                return; // answered with a change already
            }
            if (forBreaker.isEmpty()) {
                waiting.remove(breaker);
            }
        }
        one.answer().complete(ProbeLease.heldElsewhere(Math.max(0L, one.remainingMillis() - wait)));
    }

    /** The store closes: every waiting answer is that the lease is held elsewhere, as it was. */
    void close() {
        List<Waiting> all = new ArrayList<>();
        synchronized (this) {
            closed = true;
            waiting.values().forEach(all::addAll);
            waiting.clear();
        }
        all.forEach(one -> one.answer().complete(ProbeLease.heldElsewhere(one.remainingMillis())));
    }
}
