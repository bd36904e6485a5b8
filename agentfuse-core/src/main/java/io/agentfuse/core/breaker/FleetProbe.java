package io.agentfuse.core.breaker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The fleet's side of one HALF_OPEN state: whether this instance probes, decided with the store's
 * probe lease on the first call that finds the state, and the probe permits while it does.
 *
 * <p>Why on the call: the first call after the open time may reach any instance, and exactly one
 * probe may run; only an instance with a call in hand can use a lease, so the lease is asked for
 * then, and the call waits for the store's answer (one Redis round trip, bounded by the store's
 * command timeout; when another instance holds the lease, the store waits a short while for that
 * probe's result, so a call that asks just as the probe ends gets the close) instead of being refused. A lease taken ahead of time by a timer would sit
 * on whichever instance won the race, while the call goes to another. A caller that cannot wait
 * ({@link CircuitBreaker#acquire()}) is refused, and the lease asked on its behalf is held only for
 * {@link #CLAIM_WINDOW}: the next call here within half of it probes, else it lapses for others.
 *
 * <p>The phases: {@code IDLE} (nobody asked yet), {@code ASKING} (up to {@code halfOpenRequests}
 * calls wait for the answer; more are refused), {@code CLAIMABLE} (held without a call),
 * {@code PROBING} (this instance probes: with the lease, or alone while the store is away) and
 * {@code ELSEWHERE} (another instance probes: calls are refused for at most {@link #RECHECK}, then
 * the next call asks again, so a lease given back, lapsed or expired is taken over at once).
 * A lease whose probes all ended without a transition (a permit given back, an ignored outcome) is
 * given back at once.
 *
 * <p>Thread-safe: every change of phase and permits is made under this object's lock, which a
 * call takes only in HALF_OPEN, and not when a refusal can be read from the volatile phase alone.
 */
final class FleetProbe {

    /** How long a call on an instance that does not probe is refused before the instance asks the fleet again. */
    static final Duration RECHECK = Duration.ofSeconds(1);
    /** How long a lease asked for without a call in hand is held in the store. */
    static final Duration CLAIM_WINDOW = Duration.ofSeconds(1);

    /** Internal answers of {@link #admit}'s decision under the lock, never returned to a caller. */
    private static final long ASK = -2L;
    private static final long CLAIMED = -3L;

    private enum Phase { IDLE, ASKING, CLAIMABLE, PROBING, ELSEWHERE }

    private final HalfOpenState state;
    private final CircuitBreaker breaker;
    private final FleetLink fleet;
    private final int probes;
    private final List<LongConsumer> waiters = new ArrayList<>(2);
    private volatile Phase phase = Phase.IDLE;
    /** ELSEWHERE: calls are refused without asking until then; CLAIMABLE: the lease may be used until then. */
    private volatile long untilNanos;
    private long askedAtNanos;
    private boolean askedWithCall;
    private boolean holdsLease;
    private int spare;

    FleetProbe(HalfOpenState state, CircuitBreaker breaker, FleetLink fleet) {
        this.state = state;
        this.breaker = breaker;
        this.fleet = fleet;
        this.probes = breaker.config().halfOpenRequests();
    }

    /**
     * A call's permit: the state's stamp, {@link CircuitBreaker#NOT_PERMITTED}, or
     * {@link CircuitBreaker#PENDING} when {@code waiter} (non-null) will get it once the fleet decided.
     */
    long admit(LongConsumer waiter) {
        if (phase == Phase.ELSEWHERE && breaker.clock().nanoTime() - untilNanos < 0) {
            return CircuitBreaker.NOT_PERMITTED; // the common refusal while another instance probes: no lock
        }
        long permit;
        synchronized (this) {
            long now = breaker.clock().nanoTime();
            permit = switch (phase) {
                case PROBING -> spare > 0 ? handOne() : CircuitBreaker.NOT_PERMITTED;
                case ASKING -> waitFor(waiter);
                case CLAIMABLE -> now - untilNanos < 0 ? claim() : ask(waiter, now);
                case ELSEWHERE -> now - untilNanos < 0 ? CircuitBreaker.NOT_PERMITTED : ask(waiter, now);
                case IDLE -> ask(waiter, now);
            };
        }
        if (permit == ASK) {
            fleet.requestProbe(breaker, waiter != null ? breaker.config().probeTimeout() : claimWindow(), this);
            if (waiter != null) {
                return CircuitBreaker.PENDING;
            }
            permit = decidedAtOnce();
        }
        if (permit == CLAIMED) {
            fleet.renewProbe(breaker, breaker.config().probeTimeout());
            return state.stamp;
        }
        return permit;
    }

    private long waitFor(LongConsumer waiter) {
        if (waiter == null || waiters.size() >= probes) {
            return CircuitBreaker.NOT_PERMITTED;
        }
        waiters.add(waiter);
        return CircuitBreaker.PENDING;
    }

    private long ask(LongConsumer waiter, long now) {
        phase = Phase.ASKING;
        askedAtNanos = now;
        askedWithCall = waiter != null;
        if (waiter != null) {
            waiters.add(waiter);
        }
        return ASK;
    }

    private long claim() {
        phase = Phase.PROBING;
        spare = probes;
        handOne();
        return CLAIMED;
    }

    /** A caller that cannot wait, after asking: a store that answered at once (it is away, or has no leases) may let it probe. */
    private synchronized long decidedAtOnce() {
        return switch (phase) {
            case PROBING -> spare > 0 ? handOne() : CircuitBreaker.NOT_PERMITTED;
            case CLAIMABLE -> claim();
            default -> CircuitBreaker.NOT_PERMITTED;
        };
    }

    private long handOne() {
        spare--;
        state.handed(1);
        return state.stamp;
    }

    private Duration claimWindow() {
        Duration timeout = breaker.config().probeTimeout();
        return timeout.compareTo(CLAIM_WINDOW) < 0 ? timeout : CLAIM_WINDOW;
    }

    /** This instance holds the lease: the waiting calls probe, and the rest of the probes go to the next calls here. */
    void granted() {
        List<LongConsumer> ready;
        boolean renew = false;
        synchronized (this) {
            if (phase != Phase.ASKING) {
                return;
            }
            ready = takeWaiters();
            holdsLease = true;
            if (!state.isCurrent()) {
                phase = Phase.IDLE;
                holdsLease = false;
            } else if (ready.isEmpty()) {
                // Asked for a caller that could not wait: usable by the next call here, with a margin
                // for the store's expiry of the short lease.
                phase = Phase.CLAIMABLE;
                untilNanos = askedAtNanos + claimWindow().toNanos() / 2;
            } else {
                renew = !askedWithCall;
                startProbing(ready.size());
            }
        }
        if (!holdsLease) {
            fleet.releaseProbe(breaker); // the breaker moved on while we asked
            ready.forEach(this::redirect);
            return;
        }
        if (renew) {
            fleet.renewProbe(breaker, breaker.config().probeTimeout());
        }
        ready.forEach(waiter -> waiter.accept(state.stamp));
    }

    /** The store cannot answer: this instance probes on its own, as a breaker alone would. */
    void storeAway() {
        List<LongConsumer> ready;
        synchronized (this) {
            if (phase != Phase.ASKING) {
                return;
            }
            ready = takeWaiters();
            holdsLease = false;
            startProbing(ready.size());
        }
        ready.forEach(waiter -> waiter.accept(state.stamp));
    }

    private void startProbing(int waiting) {
        phase = Phase.PROBING;
        spare = probes - waiting;
        state.handed(waiting);
    }

    /**
     * Another instance probes, for at most {@code remainingMillis} more: the waiting calls are refused
     * and this instance asks again later. A waiting call whose state was replaced while the store
     * answered (the fleet's close or trip reached this instance first) asks the new state instead, so
     * a close that arrived before the answer lets it through.
     */
    void heldElsewhere(long remainingMillis) {
        List<LongConsumer> ready;
        synchronized (this) {
            if (phase != Phase.ASKING) {
                return;
            }
            ready = takeWaiters();
            elsewhereFor(Math.min(Duration.ofMillis(remainingMillis).toNanos(), RECHECK.toNanos()));
        }
        ready.forEach(this::redirect);
    }

    /** The fleet moved on and its change was applied: the waiting calls ask the breaker's state now. */
    void superseded() {
        List<LongConsumer> ready;
        synchronized (this) {
            ready = takeWaiters();
            elsewhereFor(RECHECK.toNanos()); // in case the change could not be applied
        }
        ready.forEach(this::redirect);
    }

    private void elsewhereFor(long nanos) {
        phase = Phase.ELSEWHERE;
        holdsLease = false;
        untilNanos = breaker.clock().nanoTime() + Math.max(0L, nanos);
    }

    private List<LongConsumer> takeWaiters() {
        List<LongConsumer> ready = List.copyOf(waiters);
        waiters.clear();
        return ready;
    }

    /** A waiting call is refused while this is still the breaker's state, and asks the current state if it was replaced. */
    private void redirect(LongConsumer waiter) {
        if (breaker.rawState() == state) {
            breaker.rejected();
            waiter.accept(CircuitBreaker.NOT_PERMITTED);
            return;
        }
        long permit = breaker.rawState().tryAcquire(waiter);
        if (permit != CircuitBreaker.PENDING) {
            waiter.accept(permit);
        }
    }

    /**
     * A permit came back without an outcome that decides (a call not made, an ignored outcome):
     * with no probe in flight any more, the lease is given back for any instance to probe.
     */
    void permitReturned(int outstanding) {
        boolean giveBack;
        synchronized (this) {
            if (phase != Phase.PROBING) {
                return;
            }
            spare++;
            giveBack = outstanding == 0 && state.isCurrent();
            if (giveBack) {
                spare = 0;
                phase = Phase.IDLE;
                giveBack = holdsLease;
                holdsLease = false;
            }
        }
        if (giveBack) {
            fleet.releaseProbe(breaker);
        }
    }

    /** Whether the HALF_OPEN state this decides for is still the breaker's state. */
    boolean isCurrent() {
        return state.isCurrent();
    }

    /** Probe permits not handed out yet. */
    int spare() {
        return phase == Phase.PROBING ? spare : 0;
    }

    /** How long a refused caller should stay away: until this instance asks the fleet again; 0 when it would ask now. */
    long refusedForNanos() {
        return phase == Phase.ELSEWHERE ? Math.max(0L, untilNanos - breaker.clock().nanoTime()) : 0L;
    }

    /** Why this instance lets no call through, for the rejection's message. */
    String reason(int trip) {
        return switch (phase) {
            case ELSEWHERE -> "another instance probes after trip " + trip;
            case ASKING -> "asking the fleet for the probe after trip " + trip;
            default -> "probing after trip " + trip;
        };
    }
}
