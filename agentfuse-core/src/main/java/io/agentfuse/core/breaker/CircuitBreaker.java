package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A circuit breaker with agent-aware triggers: it stops calling what keeps failing, fails fast
 * while it is open, probes when the open time ends, and closes again when the probes succeed.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>States {@code CLOSED → OPEN → HALF_OPEN → CLOSED}, plus operator states FORCED_OPEN and
 *       DISABLED (see {@link CircuitState}). The first {@link Trigger} that fires opens the breaker
 *       and is its reason.</li>
 *   <li>Exactly one thread performs each transition (a CAS on the state), and each transition
 *       publishes exactly one {@link StateTransition}.</li>
 *   <li>In CLOSED, a permission check is one volatile read and recording is lock-free; neither
 *       allocates. Rejection allocates nothing either: the {@link Rejection} value and the
 *       {@link CircuitOpenException} are made once per open period.</li>
 *   <li>Time comes only from the injected {@link Clock}.</li>
 * </ul>
 *
 * <h2>Two ways to use it</h2>
 * Around a call: {@link #executeSupplier(Supplier)} (throws {@link CircuitOpenException}) or
 * {@link #execute(Supplier, Function)} (hands the rejection to a function instead). Or by hand,
 * when the call is asynchronous or measured elsewhere: {@link #tryAcquirePermission()}, then
 * exactly one of {@link #onSuccess}, {@link #onError}, {@link #onOutcome} or
 * {@link #releasePermission()}.
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
public final class CircuitBreaker {

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(CircuitBreaker.class, "state", AbstractState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final CircuitBreakerConfig config;
    private final Clock clock;
    private final long tokenLimit;
    private final long maxRetryAfterNanos;
    private final boolean triggersUseDuration;
    private volatile AbstractState state;
    private final BreakerListeners listeners = new BreakerListeners();

    private CircuitBreaker(String name, CircuitBreakerConfig config, Clock clock) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tokenLimit = config.triggers().stream()
                .filter(Trigger.TokenOveruse.class::isInstance)
                .mapToLong(trigger -> ((Trigger.TokenOveruse) trigger).maxTokensPerCall())
                .findFirst().orElse(Long.MAX_VALUE);
        this.triggersUseDuration = config.triggers().stream().anyMatch(trigger ->
                trigger instanceof Trigger.ConsecutiveTimeouts || trigger instanceof Trigger.SlowCallRate);
        this.maxRetryAfterNanos = config.maxRetryAfter().toNanos();
        this.state = new ClosedState(this, clock.nanoTime());
    }

    /** A breaker on the system clock. */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config) {
        return new CircuitBreaker(name, config, Clock.system());
    }

    /** A breaker on {@code clock} (a {@link ManualClock} in tests). */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config, Clock clock) {
        return new CircuitBreaker(name, config, clock);
    }

    // ---------------------------------------------------------------- calls

    /** Whether a call may be made now. If {@code true}, report exactly one outcome or release. */
    public boolean tryAcquirePermission() {
        return state.tryAcquire();
    }

    /** Like {@link #tryAcquirePermission()}, but throws when the call may not be made. */
    public void acquirePermission() {
        if (!state.tryAcquire()) {
            throw currentRejection().exception();
        }
    }

    /** Gives back a permission for a call that was not made after all (e.g. a full bulkhead). */
    public void releasePermission() {
        state.release();
    }

    /** Records a success that took {@code durationNanos} (or -1 if not measured). */
    public void onSuccess(long durationNanos) {
        record(Outcome.SUCCESS, durationNanos, 0L);
    }

    /**
     * Records a success that used {@code tokens} tokens; over the {@code tokenOveruse} limit it
     * counts as {@link Outcome#TOKEN_OVERUSE}.
     */
    public void onSuccess(long durationNanos, long tokens) {
        record(tokens > tokenLimit ? Outcome.TOKEN_OVERUSE : Outcome.SUCCESS, durationNanos, 0L);
    }

    /** Records a call that returned {@code result}, classified by the configured result rules. */
    public void onResult(Object result, long durationNanos) {
        record(config.classifier().classifyResult(result), durationNanos, 0L);
    }

    /** Records a call that threw {@code error}, classified by the configured classifier. */
    public void onError(Throwable error, long durationNanos) {
        record(config.classifier().classify(error), durationNanos, retryAfterNanosOf(error));
    }

    /** Records a call that ended as {@code outcome}. */
    public void onOutcome(Outcome outcome, long durationNanos) {
        record(outcome, durationNanos, 0L);
    }

    /**
     * Records a call that ended as {@code outcome} and asked to be left alone for
     * {@code retryAfterNanos} (a {@code Retry-After}; 0 if none): if this opens the breaker, or it
     * is open already, it stays open at least that long, up to {@code maxRetryAfter}.
     */
    public void onOutcome(Outcome outcome, long durationNanos, long retryAfterNanos) {
        record(outcome, durationNanos, retryAfterNanos);
    }

    private void record(Outcome outcome, long durationNanos, long retryAfterNanos) {
        state.record(outcome, durationNanos, Math.min(retryAfterNanos, maxRetryAfterNanos));
        listeners.recorded(this, outcome, durationNanos);
    }

    private long retryAfterNanosOf(Throwable error) {
        return Math.max(0L, RetryAfter.ofError(error, clock.epochMillis()));
    }

    /**
     * Whether a call's duration would be used, by a trigger that judges durations or by a
     * listener. Reading the clock twice is most of what a guarded call costs, so calls nobody
     * times are recorded as not measured (-1).
     */
    public boolean timesCalls() {
        return triggersUseDuration || listeners.wantsRecordedCalls();
    }

    private long elapsedSince(boolean timed, long start) {
        return timed ? clock.nanoTime() - start : -1L;
    }

    /** Runs {@code call} if permitted and records its outcome; throws {@link CircuitOpenException} if not. */
    public <T> T executeSupplier(Supplier<T> call) {
        acquirePermission();
        return callAndRecord(call);
    }

    /** Like {@link #executeSupplier(Supplier)} for a call that throws checked exceptions. */
    public <T> T executeCallable(Callable<T> call) throws Exception {
        acquirePermission();
        boolean timed = timesCalls();
        long start = timed ? clock.nanoTime() : 0L;
        T result;
        try {
            result = call.call();
        } catch (Exception | Error e) {
            onError(e, elapsedSince(timed, start));
            throw e;
        }
        onResult(result, elapsedSince(timed, start));
        return result;
    }

    /** Runs {@code call} if permitted; otherwise returns what {@code whenOpen} makes of the rejection. */
    public <T> T execute(Supplier<T> call, Function<? super Rejection, ? extends T> whenOpen) {
        if (!state.tryAcquire()) {
            return whenOpen.apply(currentRejection());
        }
        return callAndRecord(call);
    }

    /** Makes a permitted call and records how it ended. */
    private <T> T callAndRecord(Supplier<T> call) {
        boolean timed = timesCalls();
        long start = timed ? clock.nanoTime() : 0L;
        T result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            onError(e, elapsedSince(timed, start));
            throw e;
        }
        onResult(result, elapsedSince(timed, start));
        return result;
    }

    /** The rejection of the current open period, or {@code null} while calls are let through. */
    public Rejection rejection() {
        return state.rejection();
    }

    /** The rejection for a caller just refused: the open period's, or one naming a probing HALF_OPEN. */
    public Rejection currentRejection() {
        AbstractState current = state;
        Rejection rejection = current.rejection();
        return rejection != null ? rejection : new Rejection(this, current);
    }

    // ---------------------------------------------------------------- operators

    /** Opens the breaker until an operator closes it. */
    public void forceOpen(String reason) {
        install(new OperatorState(this, CircuitState.FORCED_OPEN, reason), "operator: " + reason);
    }

    /** Switches the breaker off: every call passes and nothing is recorded, until closed again. */
    public void disable(String reason) {
        install(new OperatorState(this, CircuitState.DISABLED, reason), "operator: " + reason);
    }

    /** Closes the breaker with fresh counters, whatever its state. */
    public void close(String reason) {
        install(new ClosedState(this, clock.nanoTime()), "operator: " + reason);
    }

    /** Back to the initial state: CLOSED with fresh counters, the backoff of repeated trips forgotten. */
    public void reset() {
        install(new ClosedState(this, clock.nanoTime()), "reset");
    }

    /**
     * Lets probes through now: the way out of OPEN in user-led mode ({@code autoHalfOpen=false}),
     * e.g. when the user explicitly approves one action. Does nothing unless the breaker is OPEN.
     *
     * @return whether the breaker moved to HALF_OPEN
     */
    public boolean transitionToHalfOpen() {
        AbstractState current = state;
        return current instanceof OpenState open
                && transition(current, new HalfOpenState(this, open.trip()), "probe requested");
    }

    private void install(AbstractState next, String reason) {
        AbstractState current;
        do {
            current = state;
        } while (!transition(current, next, reason));
    }

    // ---------------------------------------------------------------- transitions

    /** Opens the breaker from {@code from} for the {@code trip}-th trip in a row. */
    void trip(AbstractState from, int trip, String reason, long retryAfterNanos) {
        long now = clock.nanoTime();
        double unit = config.openBackoff().jitter() == 0.0 ? 0.0 : ThreadLocalRandom.current().nextDouble();
        long openNanos = config.openBackoff().openNanos(config.resetTimeout().toNanos(), trip, unit);
        long until = now + Math.max(openNanos, retryAfterNanos);
        transition(from, new OpenState(this, reason, trip, until), reason);
    }

    /** Installs {@code to} if the state is still {@code from}; the winner publishes the event. */
    boolean transition(AbstractState from, AbstractState to, String reason) {
        if (!STATE.compareAndSet(this, from, to)) {
            return false;
        }
        listeners.transitioned(() -> {
            Map<String, Long> counts = new LinkedHashMap<>();
            from.addCounts(counts, clock.nanoTime());
            return new StateTransition(name, from.kind(), to.kind(), reason, counts, clock.epochMillis());
        });
        return true;
    }

    void rejected() {
        listeners.rejected(this);
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

    /** Its current state. */
    public CircuitState state() {
        return state.kind();
    }

    /** State, reason, open-until and counters, for operators. */
    public CircuitBreakerSnapshot snapshot() {
        AbstractState current = state;
        long now = clock.nanoTime();
        Map<String, Long> counts = new LinkedHashMap<>();
        current.addCounts(counts, now);
        long until = current.openUntilNanos();
        Instant openUntil = until == Long.MIN_VALUE ? null : Instant.ofEpochMilli(clock.epochMillisAt(until));
        return new CircuitBreakerSnapshot(name, current.kind(), current.reason(), openUntil, counts);
    }

    @Override
    public String toString() {
        return "CircuitBreaker[" + name + ", " + state.kind() + "]";
    }
}
