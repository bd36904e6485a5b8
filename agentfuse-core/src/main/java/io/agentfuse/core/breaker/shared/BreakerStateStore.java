package io.agentfuse.core.breaker.shared;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where the instances of a fleet share their breakers' changes: Redis in {@code agentfuse-redis}.
 * A {@link io.agentfuse.core.breaker.CircuitBreakerRegistry} built with
 * {@code .stateStore(store)} publishes its breakers' trips and operator actions here and applies
 * the changes other instances publish.
 *
 * <p>What an implementation guarantees:
 * <ul>
 *   <li>No method blocks the calling thread: a breaker's transition publishes from whatever thread
 *       made it, possibly an event loop. A store that cannot answer (down, slow) fails the stage;
 *       the registry goes on with local state and shares again when the store is back.</li>
 *   <li>Versions of one breaker's changes grow with every publish, across restarts of the store.</li>
 *   <li>The {@link Listener} is called on the store's own thread, one call at a time, never on a
 *       thread that called the store; the stages of {@link #read}, {@link #publish} and
 *       {@link #tryProbeLease} complete on that thread too, except a stage that fails at once
 *       (the store is unreachable), which may complete on the caller's.</li>
 * </ul>
 *
 * <pre>{@code
 * CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder()
 *     .stateStore(RedisStateStore.create("redis://127.0.0.1:6379"))
 *     .build();
 * }</pre>
 */
public interface BreakerStateStore extends AutoCloseable {

    /** Receives what the fleet shares. */
    interface Listener {

        /** A change published by any instance of the fleet, this one included; may come late or twice. */
        void onShared(SharedBreakerState state);

        /**
         * The store is reachable again (or asks for a periodic check): read the breakers you hold
         * and share what could not be shared while it was away.
         */
        void onResync();

        /** Time to share the rate triggers' windows ({@link #shareWindow}); the store calls it every second or so. */
        default void onWindowsDue() {
        }
    }

    /**
     * Starts delivering the fleet's changes to {@code listener}. Called once, by the registry that
     * owns this store.
     */
    void start(Listener listener);

    /**
     * Shares {@code state} (whose version is ignored) with the fleet; the stage completes with the
     * version the store gave it, or fails if the store could not take it. A change ends the
     * breaker's probe lease, whoever holds it: the half-open period it was for is over.
     */
    CompletionStage<Long> publish(SharedBreakerState state);

    /** The latest change shared for {@code breaker}, if any; fails if the store cannot answer. */
    CompletionStage<Optional<SharedBreakerState>> read(String breaker);

    /**
     * Asks, for {@code holder}, for the fleet's one half-open probe of {@code breaker} for
     * {@code ttl}. The store grants it if nobody holds it (asking again while holding it renews
     * it), answers who else holds it and for how long, or, when the breaker's latest change is
     * newer than {@code seenVersion} (a close or trip the asker missed), answers that change
     * instead of a lease. When another instance holds the lease, the answer waits a short, bounded
     * time (never beyond that lease) for a change newer than {@code seenVersion} to reach the store,
     * and answers it if it comes: the holder closes the breaker when its probe succeeds and tells
     * the store a round trip later, so an instance that asked in between is told of the close (and
     * serves its call) rather than that a probe is under way. A lease the store finds without an
     * expiry, or with a longer one than {@code ttl}, was not made by this protocol: it is taken
     * over, or cut to {@code ttl}, so that no lease outlives one probe timeout. The stage completes
     * within the store's own bounded time (its command timeout and that wait) or fails. The
     * default, for a store without leases, grants every request, so each instance probes on its own.
     */
    default CompletionStage<ProbeLease> tryProbeLease(String breaker, long seenVersion, String holder, Duration ttl) {
        return CompletableFuture.completedFuture(ProbeLease.granted(ttl.toMillis()));
    }

    /** Gives the probe lease of {@code breaker} back if {@code holder} holds it; fire and forget. */
    default void releaseProbeLease(String breaker, String holder) {
    }

    /**
     * Shares {@code holder}'s current window of {@code breaker}'s rate trigger {@code trigger}
     * ({@code calls}, {@code hits}) and answers the sum over every instance that shared one
     * recently for the same {@code generation} (the version of the breaker's shared state the
     * window was counted under, so that windows from before a trip never add up with those after
     * it). The default, for a store that does not count, answers this instance's own.
     */
    default CompletionStage<FleetWindow> shareWindow(String breaker, String trigger, long generation, String holder,
                                                     long calls, long hits) {
        return CompletableFuture.completedFuture(new FleetWindow(calls, hits));
    }

    /** Stops sharing and releases connections and threads. */
    @Override
    void close();
}
