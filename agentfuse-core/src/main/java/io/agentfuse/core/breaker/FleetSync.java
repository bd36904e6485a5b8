package io.agentfuse.core.breaker;

import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.core.breaker.shared.ProbeLease;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A registry's side of a {@link BreakerStateStore}: shares its breakers' trips, operator actions
 * and closes, and applies those of the rest of the fleet.
 *
 * <p>Rate triggers ({@code failureRate}, {@code slowCallRate}) also count across the fleet: every
 * second or so ({@link #onWindowsDue()}) each CLOSED breaker's windows are shared and summed, and a
 * fleet whose sum crosses the threshold trips the breaker, everywhere.
 *
 * <p>An operator's close or reset is shared even where it changed nothing (the breaker was CLOSED
 * here), since it may not be CLOSED everywhere. In HALF_OPEN only the instance holding the store's
 * probe lease probes ({@link FleetProbe}, asked for by the first call there); the change its probes
 * end with (a close or a new trip) ends the lease, and reaches the others as any change does.
 *
 * <p>Nothing here runs on a breaker's hot path: a breaker tells this class only of transitions
 * (as a listener), and the store is asked only then, when a breaker is made, on a resync, and for
 * the probe lease by a call that finds the breaker HALF_OPEN (one request at a time per breaker,
 * at most once a second while another instance probes). A change is applied only if its version
 * is newer than the last one seen for that breaker, so late and duplicate messages are harmless;
 * a change being applied is not shared again (no echo), which is known from the thread: the store
 * delivers on its own thread and {@link #APPLYING} marks it. A change the store could not take is
 * kept and shared on the next resync, unless the fleet moved on meanwhile (a newer version in the
 * store wins). Thread-safe.
 */
final class FleetSync implements BreakerStateStore.Listener, FleetLink {

    private static final ThreadLocal<Boolean> APPLYING = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final CircuitBreakerRegistry registry;
    private final BreakerStateStore store;
    private final String origin = UUID.randomUUID().toString();
    private final ConcurrentHashMap<String, Long> versions = new ConcurrentHashMap<>();
    /** Per breaker, its latest own change that the store could not take. */
    private final ConcurrentHashMap<String, Unshared> unshared = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    FleetSync(CircuitBreakerRegistry registry, BreakerStateStore store) {
        this.registry = registry;
        this.store = store;
    }

    /**
     * Shares {@code breaker}'s changes from now on, and catches up with what the fleet shared before.
     * A breaker that replaces another of its name (a reload with new settings) knows nothing yet,
     * so the fleet's latest change applies to it even if its predecessor had seen it.
     */
    void attach(CircuitBreaker breaker) {
        versions.remove(breaker.name());
        breaker.transitions().link(this);
        breaker.addListener(new FleetPublisher(breaker, this));
        catchUp(breaker);
    }

    /** The registry dropped the breaker {@code name}: what was kept for it goes, so names that come and go leave nothing. */
    void forget(String name) {
        versions.remove(name);
        unshared.remove(name);
    }

    private void catchUp(CircuitBreaker breaker) {
        store.read(breaker.name()).whenComplete((latest, failure) -> {
            if (failure != null) {
                return; // the store is away; the next resync tries again
            }
            boolean applied = latest.map(shared -> apply(breaker, shared)).orElse(false);
            Unshared mine = unshared.get(breaker.name());
            if (!applied && mine != null && latest.map(shared -> shared.version() <= seen(breaker.name())).orElse(true)) {
                publish(mine);
            }
        });
    }

    @Override
    public void onShared(SharedBreakerState shared) {
        if (shared.origin().equals(origin)) {
            versions.merge(shared.breaker(), shared.version(), Math::max);
            return;
        }
        registry.find(shared.breaker()).ifPresent(breaker -> apply(breaker, shared));
    }

    /**
     * Asks the store for the probe lease, telling it the last version seen of the breaker, so that
     * a close or trip this instance missed comes back instead of a lease. A store that cannot
     * answer leaves the instance to probe on its own.
     */
    @Override
    public void requestProbe(CircuitBreaker breaker, Duration ttl, FleetProbe probe) {
        CompletionStage<ProbeLease> asked;
        try {
            asked = store.tryProbeLease(breaker.name(), seen(breaker.name()), origin, ttl);
        } catch (RuntimeException failed) {
            probe.storeAway();
            return;
        }
        asked.whenComplete((lease, failure) -> {
            if (failure != null) {
                probe.storeAway();
                return;
            }
            switch (lease.status()) {
                case GRANTED -> probe.granted();
                case HELD_ELSEWHERE -> probe.heldElsewhere(lease.remainingMillis());
                case SUPERSEDED -> superseded(breaker, ttl, probe, lease.newer());
                default -> throw new IllegalStateException("unknown lease status " + lease.status());
            }
        });
    }

    /**
     * The store knew a change newer than this instance had seen. One that leaves the probe's HALF_OPEN state
     * the breaker's is no news (its own trip, whose version had not come back yet; another's trip whose open
     * time is over too): the lease is asked for again knowing it, not the call refused with nobody probing
     * (each round sends a higher version). One that moved the breaker on, now or when its message arrived
     * ahead of this answer, sends the waiting calls to the breaker's new state.
     */
    private void superseded(CircuitBreaker breaker, Duration ttl, FleetProbe probe, Optional<SharedBreakerState> newer) {
        newer.ifPresentOrElse(change -> learn(breaker, change), () -> catchUp(breaker));
        if (newer.isPresent() && probe.isCurrent()) {
            requestProbe(breaker, ttl, probe);
        } else {
            probe.superseded();
        }
    }

    private void learn(CircuitBreaker breaker, SharedBreakerState change) {
        if (!change.origin().equals(origin)) {
            apply(breaker, change);
        }
        versions.merge(breaker.name(), change.version(), Math::max);
    }

    @Override
    public void renewProbe(CircuitBreaker breaker, Duration ttl) {
        store.tryProbeLease(breaker.name(), seen(breaker.name()), origin, ttl);
    }

    @Override
    public void releaseProbe(CircuitBreaker breaker) {
        store.releaseProbeLease(breaker.name(), origin);
    }

    @Override
    public void closedAgain(CircuitBreaker breaker, String reason) {
        shareOwn(breaker, CircuitState.CLOSED, reason, Map.of(), 0L, breaker.clock().epochMillis());
    }

    /** Shares {@code breaker}'s own change to {@code state}, unless it is the fleet's, being applied here (no echo). */
    void shareOwn(CircuitBreaker breaker, CircuitState state, String reason, Map<String, Long> counts,
                  long openUntilEpochMillis, long epochMillis) {
        if (!APPLYING.get()) {
            publish(new Unshared(changes.incrementAndGet(), SharedBreakerState.unpublished(breaker.name(), state, reason,
                    counts, openUntilEpochMillis, origin, epochMillis)));
        }
    }

    /**
     * Shares each CLOSED breaker's rate windows and trips it if the fleet's sum crosses the
     * trigger's threshold though no instance's own window did: the same rule as the trigger's,
     * over every instance's calls. Runs on the store's thread, never per call.
     */
    @Override
    public void onWindowsDue() {
        for (CircuitBreaker breaker : registry.all()) {
            if (breaker.rawState() instanceof ClosedState closed) {
                for (Trigger trigger : breaker.config().triggers()) {
                    if (trigger instanceof Trigger.FailureRate rate) {
                        shareWindow(breaker, closed, rate.name(), rate.minCalls(), rate.threshold());
                    } else if (trigger instanceof Trigger.SlowCallRate rate) {
                        shareWindow(breaker, closed, rate.name(), rate.minCalls(), rate.threshold());
                    }
                }
            }
        }
    }

    private void shareWindow(CircuitBreaker breaker, ClosedState closed, String trigger, int minCalls, double threshold) {
        Optional<BreakerCounts.Window> window = Transitions.countsOf(closed, breaker.clock().nanoTime()).window(trigger);
        if (window.isEmpty() || window.get().calls() == 0) {
            return;
        }
        store.shareWindow(breaker.name(), trigger, seen(breaker.name()), origin, window.get().calls(), window.get().hits())
                .whenComplete((fleet, failure) -> {
                    if (failure == null && fleet.calls() >= minCalls && fleet.hits() > threshold * fleet.calls()) {
                        breaker.transitions().trip(closed, String.format(Locale.ROOT,
                                "%s across the fleet: %d of %d calls (%.1f%% > %.1f%%)", trigger, fleet.hits(),
                                fleet.calls(), 100.0 * fleet.hits() / fleet.calls(), 100.0 * threshold), 0L);
                    }
                });
    }

    @Override
    public void onResync() {
        registry.all().forEach(this::catchUp);
    }

    /** Applies {@code shared} to {@code breaker} if it is newer than what was seen; whether it was. */
    private boolean apply(CircuitBreaker breaker, SharedBreakerState shared) {
        String name = breaker.name();
        boolean[] newer = {false};
        versions.compute(name, (key, seen) -> {
            newer[0] = seen == null || shared.version() > seen;
            return newer[0] ? shared.version() : seen;
        });
        if (!newer[0]) {
            return false;
        }
        unshared.remove(name);
        if (shared.origin().equals(origin)) {
            return true;
        }
        APPLYING.set(Boolean.TRUE);
        try {
            switch (shared.state()) {
                case OPEN -> openUntil(breaker, shared);
                case FORCED_OPEN, DISABLED -> breaker.transitions().installOperatorState(shared.state(), shared.reason());
                case CLOSED -> breaker.transitions().closeShared(shared.reason());
                default -> throw new IllegalStateException("not a shared state: " + shared.state());
            }
        } finally {
            APPLYING.set(Boolean.FALSE);
        }
        return true;
    }

    /**
     * Opens {@code breaker} for what is left of the shared trip, bounded by this breaker's own
     * rules ({@link SharedOpenTime}): a record from a peer with a wrong clock, or a forged one,
     * opens it no longer than a trip of its own would.
     */
    private static void openUntil(CircuitBreaker breaker, SharedBreakerState shared) {
        long leftMillis = SharedOpenTime.remainingMillis(breaker, shared);
        if (leftMillis > 0) {
            breaker.transitions().openShared(shared.reason(), breaker.clock().nanoTime() + leftMillis * 1_000_000L,
                    BreakerCounts.fromMap(shared.counts()));
        }
    }

    private long seen(String breaker) {
        return versions.getOrDefault(breaker, 0L);
    }

    /**
     * Shares {@code change}; if the store cannot take it, it is kept for the next resync unless a
     * later change of the same breaker is kept already, and a change taken drops every earlier one.
     */
    private void publish(Unshared pending) {
        SharedBreakerState change = pending.change();
        store.publish(change).whenComplete((version, failure) -> {
            if (failure == null) {
                versions.merge(change.breaker(), version, Math::max);
                unshared.computeIfPresent(change.breaker(), (name, kept) -> kept.sequence() <= pending.sequence() ? null : kept);
            } else {
                unshared.compute(change.breaker(), (name, kept) -> kept == null || kept.sequence() < pending.sequence() ? pending : kept);
            }
        });
    }

    /** An own change, numbered in the order this instance made them. */
    private record Unshared(long sequence, SharedBreakerState change) {
    }
}
