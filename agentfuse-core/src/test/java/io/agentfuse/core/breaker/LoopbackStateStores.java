package io.agentfuse.core.breaker;

import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.core.Clock;
import io.agentfuse.core.breaker.shared.FleetWindow;
import io.agentfuse.core.breaker.shared.ProbeLease;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A store shared by registries in one test, with the contract of a real one (versions grow per
 * breaker, delivery to every instance, its own "thread": nothing is delivered until the test calls
 * {@link #deliver()}, so the caller never sees the listener run on its own call). It can be taken
 * away ({@link #down(boolean)}): then every call fails, as a real store's would. Probe leases
 * follow the real store's rules on the test's clock: a lease expires after its TTL, a change
 * published ends it, and an asker that missed a change gets that change instead of a lease. An
 * answer that another instance holds the lease waits for that instance's change as a real store's
 * does for a short while: a change of the breaker delivered before the store's "thread" next runs
 * out of work ({@link #deliver()}) is the answer instead, also one delivered before the answer was
 * asked for (a real store reads the changes and the answers on two connections). Every window shared stays in the fleet's sum.
 */
final class LoopbackStateStores {

    private final Clock clock;

    private final Map<String, SharedBreakerState> latest = new HashMap<>();
    private final List<BreakerStateStore.Listener> listeners = new ArrayList<>();
    private final Queue<Runnable> pending = new ArrayDeque<>();
    private final List<SharedBreakerState> published = new ArrayList<>();
    private final Map<String, Lease> leases = new HashMap<>();
    /** Answers that another instance holds the lease, waiting for its change until the store's thread runs. */
    private final List<HeldLease> held = new ArrayList<>();
    /** The newest change of each breaker delivered to the instances, which a held answer asked before it is then. */
    private final Map<String, SharedBreakerState> delivered = new HashMap<>();
    private final Map<String, Map<String, long[]>> windows = new HashMap<>();
    private long lastVersion;
    private boolean down;
    private boolean deaf;
    private int leaseRequests;

    LoopbackStateStores(Clock clock) {
        this.clock = clock;
    }

    private record Lease(String holder, long untilNanos) {
    }

    private record HeldLease(String breaker, long seenVersion, ProbeLease decided, CompletableFuture<ProbeLease> answer) {
    }

    /** One instance's store. */
    BreakerStateStore connect() {
        return new BreakerStateStore() {
            @Override
            public void start(Listener listener) {
                listeners.add(listener);
            }

            @Override
            public CompletionStage<Long> publish(SharedBreakerState state) {
                if (down) {
                    return CompletableFuture.failedFuture(new IllegalStateException("store is down"));
                }
                SharedBreakerState versioned = state.withVersion(++lastVersion);
                latest.put(state.breaker(), versioned);
                leases.remove(state.breaker());
                published.add(versioned);
                CompletableFuture<Long> version = new CompletableFuture<>();
                pending.add(() -> version.complete(versioned.version()));
                broadcast(versioned);
                return version;
            }

            @Override
            public CompletionStage<Optional<SharedBreakerState>> read(String breaker) {
                if (down) {
                    return CompletableFuture.failedFuture(new IllegalStateException("store is down"));
                }
                CompletableFuture<Optional<SharedBreakerState>> answer = new CompletableFuture<>();
                Optional<SharedBreakerState> value = Optional.ofNullable(latest.get(breaker));
                pending.add(() -> answer.complete(value));
                return answer;
            }

            @Override
            public CompletionStage<ProbeLease> tryProbeLease(String breaker, long seenVersion, String holder, Duration ttl) {
                if (down) {
                    return CompletableFuture.failedFuture(new IllegalStateException("store is down"));
                }
                leaseRequests++;
                CompletableFuture<ProbeLease> answer = new CompletableFuture<>();
                ProbeLease decided = decide(breaker, seenVersion, holder, ttl);
                if (decided.status() == ProbeLease.Status.HELD_ELSEWHERE) {
                    held.add(new HeldLease(breaker, seenVersion, decided, answer));
                } else {
                    pending.add(() -> answer.complete(decided));
                }
                return answer;
            }

            @Override
            public void releaseProbeLease(String breaker, String holder) {
                if (!down && leases.containsKey(breaker) && leases.get(breaker).holder().equals(holder)) {
                    leases.remove(breaker);
                }
            }

            @Override
            public CompletionStage<FleetWindow> shareWindow(String breaker, String trigger, long generation, String holder,
                                                            long calls, long hits) {
                if (down) {
                    return CompletableFuture.failedFuture(new IllegalStateException("store is down"));
                }
                Map<String, long[]> shared = windows.computeIfAbsent(breaker + "/" + trigger + "@" + generation,
                        key -> new HashMap<>());
                shared.put(holder, new long[] {calls, hits});
                FleetWindow sum = new FleetWindow(shared.values().stream().mapToLong(window -> window[0]).sum(),
                        shared.values().stream().mapToLong(window -> window[1]).sum());
                CompletableFuture<FleetWindow> answer = new CompletableFuture<>();
                pending.add(() -> answer.complete(sum));
                return answer;
            }

            @Override
            public void close() {
            }
        };
    }

    private ProbeLease decide(String breaker, long seenVersion, String holder, Duration ttl) {
        SharedBreakerState newest = latest.get(breaker);
        if (newest != null && newest.version() > seenVersion) {
            return ProbeLease.superseded(Optional.of(newest));
        }
        long now = clock.nanoTime();
        Lease lease = leases.get(breaker);
        if (lease == null || now - lease.untilNanos() >= 0 || lease.holder().equals(holder)) {
            leases.put(breaker, new Lease(holder, now + ttl.toNanos()));
            return ProbeLease.granted(ttl.toMillis());
        }
        return ProbeLease.heldElsewhere(Duration.ofNanos(lease.untilNanos() - now).toMillis());
    }

    /**
     * Delivers {@code state} to every instance as if someone had published it, version and all; an
     * answer waiting for a change of its breaker newer than its asker saw gets it, after it.
     */
    void broadcast(SharedBreakerState state) {
        if (deaf) {
            return;
        }
        for (BreakerStateStore.Listener listener : List.copyOf(listeners)) {
            pending.add(() -> listener.onShared(state));
        }
        pending.add(() -> delivered.merge(state.breaker(), state, (known, next) -> next.version() > known.version() ? next : known));
        answerHeldLeases(state);
    }

    /** The answers waiting for a change of {@code change}'s breaker newer than their asker saw get it. */
    private void answerHeldLeases(SharedBreakerState change) {
        held.removeIf(waiting -> {
            boolean answered = waiting.breaker().equals(change.breaker()) && change.version() > waiting.seenVersion();
            if (answered) {
                pending.add(() -> waiting.answer().complete(ProbeLease.superseded(Optional.of(change))));
            }
            return answered;
        });
    }

    /**
     * Runs everything queued (and what that queues) on the calling thread, the store's "thread"; an
     * answer still waiting for another instance's change when nothing else is left is that the lease
     * is held elsewhere.
     */
    void deliver() {
        while (true) {
            Runnable next;
            while ((next = pending.poll()) != null) {
                next.run();
            }
            if (held.isEmpty()) {
                return;
            }
            List<HeldLease> waited = List.copyOf(held);
            held.clear();
            waited.forEach(waiting -> pending.add(() -> waiting.answer().complete(afterDelivered(waiting))));
        }
    }

    /** A held answer, given after the changes delivered so far: one its asker had not seen is the answer. */
    private ProbeLease afterDelivered(HeldLease waiting) {
        SharedBreakerState newest = delivered.get(waiting.breaker());
        return newest != null && newest.version() > waiting.seenVersion()
                ? ProbeLease.superseded(Optional.of(newest)) : waiting.decided();
    }

    /** Asks every instance to share its rate windows, as a real store's timer does. */
    void windowsDue() {
        listeners.forEach(listener -> pending.add(listener::onWindowsDue));
    }

    /** Loses every message on the channel from now on (or not any more), as a lost pub/sub connection would. */
    void loseMessages(boolean lose) {
        this.deaf = lose;
    }

    /** How many times an instance asked for a probe lease (renewals included). */
    int leaseRequests() {
        return leaseRequests;
    }

    /** Takes the store away or brings it back; coming back asks every instance to resync. */
    void down(boolean down) {
        this.down = down;
        if (!down) {
            listeners.forEach(listener -> pending.add(listener::onResync));
        }
    }

    /** The probe leases held now (not expired): breaker name to holder. */
    Map<String, String> leases() {
        Map<String, String> held = new HashMap<>();
        long now = clock.nanoTime();
        leases.forEach((breaker, lease) -> {
            if (now - lease.untilNanos() < 0) {
                held.put(breaker, lease.holder());
            }
        });
        return held;
    }

    /** Every change published, in order. */
    List<SharedBreakerState> published() {
        return published;
    }
}
