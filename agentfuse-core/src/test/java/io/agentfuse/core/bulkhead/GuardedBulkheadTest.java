package io.agentfuse.core.bulkhead;

import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.breaker.Unstamped;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.CallTimeoutException;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A bulkhead inside a guard: the guard frees its place however the call ends, and a full bulkhead
 * is neither a failure for the breaker nor a reason to retry.
 */
class GuardedBulkheadTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void aGuardFreesThePlaceWhenTheCallSucceeds() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).manualClock(clock).build();

        guard.execute(() -> "ok");

        assertThat(bulkhead.inFlight()).isZero();
        assertThat(guard.execute(() -> "again")).isEqualTo("again");
    }

    @Test
    void aGuardFreesThePlaceWhenTheCallThrows() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).manualClock(clock).build();

        assertThatThrownBy(() -> guard.execute(() -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");

        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void aGuardFreesThePlaceWhenTheCallTimesOut() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).timeout(Duration.ofSeconds(1)).manualClock(clock).build();

        assertThatThrownBy(() -> guard.execute(() -> {
            clock.advance(Duration.ofSeconds(2));
            return "late";
        })).isInstanceOf(CallTimeoutException.class);

        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void aGuardFreesThePlaceWhenTheCallerCancelsTheAsynchronousCall() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).manualClock(clock).build();
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletableFuture<String> result = guard.executeAsync(() -> never);
        assertThat(bulkhead.inFlight()).isEqualTo(1);

        result.cancel(true);

        assertThat(bulkhead.inFlight()).isZero();
        assertThat(never).isCancelled();
    }

    @Test
    void aGuardFreesThePlaceWhenTheAsynchronousCallTimesOut() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).timeout(Duration.ofSeconds(1)).manualClock(clock).build();
        CompletableFuture<String> result = guard.executeAsync(CompletableFuture::new);

        clock.advance(Duration.ofSeconds(1));

        assertThat(result).isCompletedExceptionally();
        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void aFullBulkheadIsNotABreakerFailureAndIsNotRetried() {
        // Given a closed breaker that would open on a single error, behind a full bulkhead
        CircuitBreaker breaker = CircuitBreaker.of("b", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).build(), clock);
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").retry(RetryPolicy.defaults()).circuitBreaker(breaker).bulkhead(bulkhead)
                .manualClock(clock).build();
        bulkhead.tryAcquire();
        AtomicInteger calls = new AtomicInteger();
        var countsBefore = breaker.snapshot().counts();

        // When a call is rejected by the bulkhead
        assertThatThrownBy(() -> guard.execute(calls::incrementAndGet)).isSameAs(bulkhead.rejection());

        // Then nothing was called, retried or recorded
        assertThat(calls).hasValue(0);
        assertThat(clock.nanoTime()).isZero();
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(breaker.snapshot().counts()).isEqualTo(countsBefore);
    }

    @Test
    void aFullBulkheadGivesBackTheHalfOpenProbePermission() {
        // Given a half-open breaker with one probe permit, behind a full bulkhead
        CircuitBreaker breaker = CircuitBreaker.of("b", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(1)).build(), clock);
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").circuitBreaker(breaker).bulkhead(bulkhead).manualClock(clock).build();
        assertThatThrownBy(() -> guard.execute(() -> {
            throw new HttpStatusException(500);
        })).isInstanceOf(HttpStatusException.class);
        clock.advance(Duration.ofMinutes(1));
        bulkhead.tryAcquire();

        // When the probe is rejected by the bulkhead, and the place then frees
        assertThatThrownBy(() -> guard.execute(() -> "probe")).isSameAs(bulkhead.rejection());
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        bulkhead.release();

        // Then the permit was given back: the next call is the probe, and it closes the breaker
        assertThat(guard.execute(() -> "probe")).isEqualTo("probe");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anAsynchronousFullBulkheadGivesBackTheBreakerPermission() {
        CircuitBreaker breaker = CircuitBreaker.of("b", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(1)).build(), clock);
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").circuitBreaker(breaker).bulkhead(bulkhead).manualClock(clock).build();
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, 0);
        clock.advance(Duration.ofMinutes(1));
        bulkhead.tryAcquire();

        CompletableFuture<String> rejected = guard.executeAsync(() -> CompletableFuture.completedFuture("probe"));
        bulkhead.release();
        CompletableFuture<String> probe = guard.executeAsync(() -> CompletableFuture.completedFuture("probe"));

        assertThatThrownBy(rejected::join).hasCause(bulkhead.rejection());
        assertThat(probe).isCompletedWithValue("probe");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }
}
