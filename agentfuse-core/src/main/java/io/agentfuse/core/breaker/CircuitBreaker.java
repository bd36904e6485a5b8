package io.agentfuse.core.breaker;

import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.event.CircuitBreakerListener;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * A circuit breaker with agent-aware triggers: it stops calling what keeps failing, fails fast
 * while it is open, probes when the open time ends, and closes again when the probes succeed.
 * States {@code CLOSED → OPEN → HALF_OPEN → CLOSED}, plus the operator states FORCED_OPEN and
 * DISABLED ({@link CircuitState}); the first {@link Trigger} that fires opens it and is its reason.
 * What it guarantees (one thread and one event per transition, permits as stamps, no allocation on
 * the closed path, a state that is true when read, time only from the injected {@link Clock}) is
 * written once, in the package documentation.
 *
 * <p>Around a call: {@link #executeSupplier(Supplier)} (throws {@link CircuitOpenException}) or
 * {@link #tryExecute(Supplier)} (a typed {@link CallResult}, never throws a rejection). By hand,
 * when the call is asynchronous or measured elsewhere: {@code long permit = }{@link #acquire()},
 * then exactly one of {@link #onResult(long, AttemptResult)}, {@link #onOutcome(long, Outcome, long, long)}
 * or {@link #release(long)} with that permit. What opens or closes it other than its triggers (an
 * operator, a server's long wait, an explicit approval) is in {@link BreakerControls}.
 *
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.of("tool:search/web_search", CircuitBreakerConfig.builder()
 *     .trigger(Trigger.consecutiveErrors(3))
 *     .resetTimeout(Duration.ofMinutes(5))
 *     .build());
 * String page = breaker.executeSupplier(() -> search("circuit breakers"));
 * }</pre>
 *
 * Thread-safe.
 */
public final class CircuitBreaker implements BreakerControls {

    /** The permit {@link #acquire()} returns when the call may not be made. */
    public static final long NOT_PERMITTED = 0L;

    /**
     * What {@link #acquire(LongConsumer)} returns when the permit is being decided: the consumer
     * gets it (or {@link #NOT_PERMITTED}) later. Never a permit itself.
     */
    public static final long PENDING = Long.MIN_VALUE;

    private static final AtomicReferenceFieldUpdater<CircuitBreaker, AbstractState> STATE =
            AtomicReferenceFieldUpdater.newUpdater(CircuitBreaker.class, AbstractState.class, "state");

    private final String name;
    private final CircuitBreakerConfig config;
    private final Clock clock;
    private final BreakerTiming timing;
    private final long tokenLimit;
    private final AtomicLong stamps = new AtomicLong();
    private final BreakerListeners listeners = new BreakerListeners();
    private final Transitions transitions = new Transitions(this);
    private volatile AbstractState state;

    private CircuitBreaker(String name, CircuitBreakerConfig config, Clock clock) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tokenLimit = config.tokenLimit();
        this.timing = new BreakerTiming(config);
        this.state = new ClosedState(this, clock.nanoTime());
    }

    /** A breaker on the system clock. */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config) {
        return new CircuitBreaker(name, config, Clock.system());
    }

    /** A breaker on {@code clock} (a {@link io.agentfuse.core.ManualClock} in tests). */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config, Clock clock) {
        return new CircuitBreaker(name, config, clock);
    }

    // ---------------------------------------------------------------- permits

    /** A permit for one call, or {@link #NOT_PERMITTED}; report exactly one outcome with it, or {@link #release} it. */
    public long acquire() {
        return state.tryAcquire();
    }

    /**
     * {@link #acquire()} for a caller that can wait without blocking: in a fleet, a call that finds
     * the breaker HALF_OPEN may have to wait for the store to say whether this instance probes; it
     * gets {@link #PENDING}, and {@code whenDecided} gets its permit or {@link #NOT_PERMITTED} once,
     * within the store's command timeout (on the store's thread, or on this one, maybe before this
     * returns). Other calls are answered at once and {@code whenDecided} is not called.
     * {@link #acquire()} never waits: such a call is refused, and the next one here probes.
     */
    public long acquire(LongConsumer whenDecided) {
        return state.tryAcquire(Objects.requireNonNull(whenDecided, "whenDecided"));
    }

    /** Whether a call may be made now; prefer {@link #acquire()}, whose permit tells late answers apart. */
    public boolean tryAcquirePermission() {
        return state.tryAcquire() != NOT_PERMITTED;
    }

    /** Like {@link #acquire()}, but throws {@link CircuitOpenException} when the call may not be made. */
    public long acquirePermission() {
        long permit = state.tryAcquire();
        if (permit == NOT_PERMITTED) {
            throw currentRejection().exception();
        }
        return permit;
    }

    /** Gives back {@code permit} for a call that was not made after all (e.g. a full bulkhead). */
    public void release(long permit) {
        AbstractState current = state;
        if (current.stamp == permit) {
            current.release();
        }
    }

    /** Records the attempt {@code result} of the call that got {@code permit}. */
    public void onResult(long permit, AttemptResult result) {
        record(permit, result.outcome(), result.durationNanos(), result.retryAfterNanos());
    }

    /**
     * Records that the call of {@code permit} ended as {@code outcome} after {@code durationNanos} (-1:
     * not measured), asking for a wait of {@code retryAfterNanos} ({@link RetryAfter#NONE}), which an open breaker honours.
     */
    public void onOutcome(long permit, Outcome outcome, long durationNanos, long retryAfterNanos) {
        record(permit, outcome, durationNanos, retryAfterNanos);
    }

    /** Records a success of the call that got {@code permit}; over the token limit it is {@link Outcome#TOKEN_OVERUSE}. */
    public void onSuccess(long permit, long durationNanos, long tokens) {
        record(permit, tokens > tokenLimit ? Outcome.TOKEN_OVERUSE : Outcome.SUCCESS, durationNanos, RetryAfter.NONE);
    }

    void record(long permit, Outcome outcome, long durationNanos, long retryAfterNanos) {
        AbstractState current = state;
        if (!current.records()) {
            return;
        }
        long hint = timing.cappedRetryAfter(retryAfterNanos);
        if (current.stamp == permit) {
            current.record(outcome, durationNanos, hint);
        } else {
            current.recordLate(hint);
        }
        listeners.recorded(this, outcome, durationNanos);
    }

    // ---------------------------------------------------------------- around a call

    /** Runs {@code call} if permitted and records its outcome; throws {@link CircuitOpenException} if not. */
    public <T> T executeSupplier(Supplier<T> call) {
        return BreakerCalls.callAndRecord(this, acquirePermission(), call);
    }

    /** Like {@link #executeSupplier(Supplier)} for a call that throws checked exceptions. */
    public <T> T executeCallable(Callable<T> call) throws Exception {
        return BreakerCalls.callAndRecord(this, acquirePermission(), call);
    }

    /** Runs {@code call} if permitted; otherwise returns what {@code whenOpen} makes of the rejection. */
    public <T> T execute(Supplier<T> call, Function<? super Rejection, ? extends T> whenOpen) {
        long permit = state.tryAcquire();
        return permit == NOT_PERMITTED ? whenOpen.apply(currentRejection()) : BreakerCalls.callAndRecord(this, permit, call);
    }

    /** Runs {@code call} if permitted; the result is its answer or the rejection, typed, never thrown. */
    public <T> CallResult<T> tryExecute(Supplier<T> call) {
        long permit = state.tryAcquire();
        return permit == NOT_PERMITTED ? currentRejection().asResult()
                : new CallResult.Answered<>(BreakerCalls.callAndRecord(this, permit, call));
    }

    /**
     * Whether {@code failure} is another breaker's rejection: refused further in, neither a failure
     * nor a success here. Also when it arrives wrapped, as a {@code join()} or {@code get()} of an
     * inner guard's future throws it ({@link OutcomeClassifier#unwrap}).
     */
    public boolean isInnerRejection(Throwable failure) {
        return OutcomeClassifier.unwrap(failure) instanceof CircuitOpenException open && open.rejection().breaker() != this;
    }

    /** Whether a trigger or listener uses call durations; calls nobody times are recorded as not measured (-1). */
    public boolean timesCalls() {
        return timing.triggersUseDuration() || listeners.wantsRecordedCalls();
    }

    /** The rejection of the current open period, or {@code null} while calls are let through. */
    public Rejection rejection() {
        return state.current().rejection();
    }

    /** The rejection for a caller just refused: the open period's, or one naming a probing HALF_OPEN. */
    public Rejection currentRejection() {
        AbstractState current = state;
        Rejection rejection = current.rejection();
        return rejection != null ? rejection : new Rejection(this, current);
    }

    /** Installs {@code to} if the state is still {@code from}; only the winner goes on. */
    boolean compareAndSetState(AbstractState from, AbstractState to) {
        return STATE.compareAndSet(this, from, to);
    }

    Transitions transitions() {
        return transitions;
    }

    BreakerListeners listeners() {
        return listeners;
    }

    void rejected() {
        listeners.rejected(this);
    }

    long nextStamp() {
        return stamps.incrementAndGet();
    }

    AbstractState rawState() {
        return state;
    }

    BreakerTiming timing() {
        return timing;
    }

    // ---------------------------------------------------------------- observation

    /** Adds a listener; it sees every event from now on. */
    public void addListener(CircuitBreakerListener listener) {
        listeners.add(listener);
    }

    /** Removes a listener added before; does nothing if it is not registered. */
    public void removeListener(CircuitBreakerListener listener) {
        listeners.remove(listener);
    }

    /** The breaker's name, e.g. {@code model:claude-sonnet-4} or {@code tool:search/web_search}. */
    public String name() {
        return name;
    }

    /** Its configuration. */
    public CircuitBreakerConfig config() {
        return config;
    }

    /** Its clock. */
    public Clock clock() {
        return clock;
    }

    /** Its state now: an OPEN breaker whose open time is over is HALF_OPEN when read. */
    public CircuitState state() {
        return state.current().kind();
    }

    /** The most tokens a call may use: {@link CircuitBreakerConfig#tokenLimit()}, read once. */
    public long tokenLimit() {
        return tokenLimit;
    }

    /** How many calls it has rejected since it was made. */
    public long rejectedCalls() {
        return listeners.rejections();
    }

    /** State, reason, open-until, counters (those that tripped it while OPEN) and rejections, for operators. */
    public CircuitBreakerSnapshot snapshot() {
        return Transitions.snapshotOf(this, state.current(), listeners.rejections());
    }

    @Override
    public String toString() {
        return "CircuitBreaker[" + name + ", " + state.kind() + "]";
    }
}
