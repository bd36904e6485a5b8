package io.agentfuse.core.breaker;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The value a rejected call gets on the non-throwing path: the seed's
 * {@code {error: "CIRCUIT_OPEN", message, retryAfter}}.
 *
 * <p>One instance exists per open period and is handed to every caller rejected in it, so the
 * non-throwing rejection allocates nothing. {@link #retryAfter()} is computed when asked, so it
 * counts down and follows any {@code Retry-After} extension. Thread-safe.
 *
 * <pre>{@code
 * String answer = breaker.tryExecute(() -> callTool()).orElse(open -> "unavailable, retry in " + open.retryAfter());
 * }</pre>
 */
public final class Rejection {

    /** The seed's error code. */
    public static final String ERROR = "CIRCUIT_OPEN";

    private final CircuitBreaker breaker;
    private final AbstractState state;
    private final String message;
    private CircuitOpenException exception;
    private final CallResult.Rejected<?> asResult = new CallResult.Rejected<>(this);

    Rejection(CircuitBreaker breaker, AbstractState state) {
        this.breaker = breaker;
        this.state = state;
        this.message = "circuit breaker '" + breaker.name() + "' is " + state.kind()
                + (state.reason().isEmpty() ? "" : " (" + state.reason() + ")");
    }

    /** Always {@value #ERROR}. */
    public String error() {
        return ERROR;
    }

    /** A human sentence naming the breaker, its state and why it opened. */
    public String message() {
        return message;
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /** The name of the breaker that rejected the call. */
    public String breakerName() {
        return breaker.name();
    }

    /**
     * The state that rejected the call: {@link CircuitState#OPEN}, {@link CircuitState#FORCED_OPEN},
     * or {@link CircuitState#HALF_OPEN} when every probe place is taken.
     */
    public CircuitState state() {
        return state.kind();
    }

    /** Why the breaker opened. */
    public String reason() {
        return state.reason();
    }

    /**
     * How long until the breaker lets a call through again, or empty when that is up to an
     * operator or the user (forced open, user-led reset). While half-open the probe's answer is
     * near: 0, or, on an instance of a fleet where another instance probes, the time until this one
     * asks the fleet again (at most a second).
     */
    public Optional<Duration> retryAfter() {
        long nanos = retryAfterNanos();
        return nanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(nanos));
    }

    /** {@link #retryAfter()} in nanoseconds, or -1 when unknown; allocation-free. */
    public long retryAfterNanos() {
        if (state.kind() == CircuitState.HALF_OPEN) {
            return state.refusedForNanos();
        }
        long until = state.openUntilNanos();
        if (until == Long.MIN_VALUE || !breaker.config().autoHalfOpen() && state.kind() == CircuitState.OPEN) {
            return -1;
        }
        return Math.max(0, until - breaker.clock().nanoTime());
    }

    /** {@link #retryAfter()} in whole seconds, rounded up, or -1 when unknown; allocation-free. */
    public long retryAfterSeconds() {
        long nanos = retryAfterNanos();
        return nanos < 0 ? -1 : (nanos + 999_999_999L) / 1_000_000_000L;
    }

    /**
     * How long to tell a rejected caller to stay away, in nanoseconds: {@link #retryAfterNanos()}
     * when the breaker lets calls through again by itself; when nothing but an operator or the user
     * will (forced open, user-led reset), the breaker's {@code resetTimeout}, so a caller told to come
     * back does not come back at once, only to be refused again. Allocation-free.
     */
    public long suggestedWaitNanos() {
        long nanos = retryAfterNanos();
        return nanos >= 0 ? nanos : breaker.config().resetTimeout().toNanos();
    }

    /** {@link #suggestedWaitNanos()} in whole seconds, rounded up; allocation-free. */
    public long suggestedWaitSeconds() {
        return (suggestedWaitNanos() + 999_999_999L) / 1_000_000_000L;
    }

    /**
     * The seed's fast-fail message for a call of {@code subject} this rejection refused, which an
     * agent reads like any failed tool: {@code "CIRCUIT_OPEN: <subject> is unavailable, retry after <s> s"},
     * the wait being {@link #suggestedWaitSeconds()}.
     */
    public String unavailable(String subject) {
        return unavailable(subject, suggestedWaitSeconds());
    }

    /** {@link #unavailable(String)} with the wait given, in whole seconds. */
    public static String unavailable(String subject, long retryAfterSeconds) {
        return ERROR + ": " + subject + " is unavailable, retry after " + retryAfterSeconds + " s";
    }

    /** When the breaker will let a call through again, or empty when unknown. */
    public Optional<Instant> openUntil() {
        long until = state.openUntilNanos();
        return until == Long.MIN_VALUE || retryAfterNanos() < 0 ? Optional.empty()
                : Optional.of(Instant.ofEpochMilli(breaker.clock().epochMillisAt(until)));
    }

    /** The seed's shape: {@code error}, {@code message}, {@code retryAfter} in whole seconds (or null). */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("error", ERROR);
        map.put("message", message);
        long seconds = retryAfterSeconds();
        map.put("retryAfter", seconds < 0 ? null : seconds);
        return map;
    }

    /** The exception for the throwing path; created once per open period (a benign race may make two). */
    public CircuitOpenException exception() {
        CircuitOpenException cached = exception;
        if (cached == null) {
            cached = new CircuitOpenException(this);
            exception = cached;
        }
        return cached;
    }

    /** This rejection as a {@link CallResult}; one instance, so rejecting allocates nothing. */
    @SuppressWarnings("unchecked")
    <T> CallResult<T> asResult() {
        return (CallResult<T>) asResult;
    }

    @Override
    public String toString() {
        return ERROR + ": " + message;
    }
}
