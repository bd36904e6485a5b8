package io.agentfuse.core.breaker;

import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.core.breaker.shared.FleetWindow;
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
 * never expire here, and every window shared stays in the fleet's sum.
 */
final class LoopbackStateStores {

    private final Map<String, SharedBreakerState> latest = new HashMap<>();
    private final List<BreakerStateStore.Listener> listeners = new ArrayList<>();
    private final Queue<Runnable> pending = new ArrayDeque<>();
    private final List<SharedBreakerState> published = new ArrayList<>();
    private final Map<String, String> leases = new HashMap<>();
    private final Map<String, Map<String, long[]>> windows = new HashMap<>();
    private long lastVersion;
    private boolean down;

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
            public CompletionStage<Boolean> tryProbeLease(String breaker, String holder, Duration ttl) {
                if (down) {
                    return CompletableFuture.failedFuture(new IllegalStateException("store is down"));
                }
                boolean mine = leases.computeIfAbsent(breaker, name -> holder).equals(holder);
                CompletableFuture<Boolean> answer = new CompletableFuture<>();
                pending.add(() -> answer.complete(mine));
                return answer;
            }

            @Override
            public void releaseProbeLease(String breaker, String holder) {
                if (!down) {
                    leases.remove(breaker, holder);
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

    /** Delivers {@code state} to every instance as if someone had published it, version and all. */
    void broadcast(SharedBreakerState state) {
        for (BreakerStateStore.Listener listener : List.copyOf(listeners)) {
            pending.add(() -> listener.onShared(state));
        }
    }

    /** Runs everything queued (and what that queues) on the calling thread, the store's "thread". */
    void deliver() {
        Runnable next;
        while ((next = pending.poll()) != null) {
            next.run();
        }
    }

    /** Asks every instance to share its rate windows, as a real store's timer does. */
    void windowsDue() {
        listeners.forEach(listener -> pending.add(listener::onWindowsDue));
    }

    /** Takes the store away or brings it back; coming back asks every instance to resync. */
    void down(boolean down) {
        this.down = down;
        if (!down) {
            listeners.forEach(listener -> pending.add(listener::onResync));
        }
    }

    /** The probe leases held now: breaker name to holder. */
    Map<String, String> leases() {
        return leases;
    }

    /** Every change published, in order. */
    List<SharedBreakerState> published() {
        return published;
    }
}
