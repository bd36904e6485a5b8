package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.breaker.Unstamped;
import io.agentfuse.core.retry.RetryPolicy;

import io.agentfuse.core.event.RetryListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class GuardTest {

    private final ManualClock clock = new ManualClock();
    private final AttemptLog log = new AttemptLog(clock);

    @AfterEach
    void leaveTheTestThreadUninterrupted() {
        Thread.interrupted();
    }

    // ---------------------------------------------------------------- the seed's execute(fn, fallback)

    @Test
    void executeWithFallbackReturnsTheCallsValueWhenItSucceeds() {
        Guard guard = Guard.builder("tool").manualClock(clock).build();
        AtomicInteger fallbacks = new AtomicInteger();

        String answer = guard.execute(() -> "from the tool", () -> "fallback " + fallbacks.incrementAndGet());

        assertThat(answer).isEqualTo("from the tool");
        assertThat(fallbacks).hasValue(0);
    }

    @Test
    void executeWithFallbackAnswersWithTheFallbackOnceRetriesAreExhausted() {
        Guard guard = Guard.builder("tool").retry(RetryPolicy.defaults()).manualClock(clock).build();

        String answer = guard.execute(log.failingWith(attempt -> new HttpStatusException(503)), () -> "cached answer");

        assertThat(answer).isEqualTo("cached answer");
        assertThat(log.millis()).containsExactly(0L, 2_000L, 6_000L, 14_000L);
    }

    @Test
    void executeWithFallbackAnswersWithTheFallbackWithoutCallingWhenTheBreakerIsOpen() {
        CircuitBreaker breaker = CircuitBreaker.of("tool", CircuitBreakerConfig.defaults(), clock);
        breaker.forceOpen("maintenance");
        Guard guard = Guard.builder("tool").retry(RetryPolicy.defaults()).circuitBreaker(breaker).manualClock(clock).build();

        String answer = guard.execute(log.answering("from the tool"), () -> "fast fail answer");

        assertThat(answer).isEqualTo("fast fail answer");
        assertThat(log.count()).isZero();
        assertThat(clock.nanoTime()).isZero();
    }

    @Test
    void executeWithFallbackFunctionReceivesWhyTheCallDidNotAnswer() {
        CircuitBreaker breaker = CircuitBreaker.of("tool", CircuitBreakerConfig.defaults(), clock);
        breaker.forceOpen("maintenance");
        Guard guard = Guard.builder("tool").circuitBreaker(breaker).manualClock(clock).build();

        String answer = guard.execute(log.answering("from the tool"),
                (RuntimeException failure) -> failure instanceof CircuitOpenException open
                        ? open.rejection().error() + " " + open.rejection().reason() : "other");

        assertThat(answer).isEqualTo("CIRCUIT_OPEN maintenance");
    }

    // ---------------------------------------------------------------- regressions

    @Test
    void aRetryRefusedByABreakerThatOpenedMeanwhileThrowsTheFailureThatLedToTheRetry() {
        // Given a guard whose breaker another caller forces open while this call waits to retry
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.defaults(), clock);
        HttpStatusException serverError = new HttpStatusException(503);
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).circuitBreaker(breaker)
                .manualClock(clock).sleeper(nanos -> {
                    breaker.forceOpen("another caller");
                    clock.sleep(nanos);
                }).build();

        // When the first attempt fails with a 503
        Throwable thrown = catchThrowable(() -> guard.execute(log.failingWith(attempt -> serverError)));

        // Then the caller gets the 503, not the rejection of the retry
        assertThat(thrown).isSameAs(serverError);
        assertThat(log.count()).isEqualTo(1);
    }

    @Test
    void aFailureThatIsNeverRetriedDoesNotReportTheRetriesAsExhausted() {
        List<String> exhausted = new CopyOnWriteArrayList<>();
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).manualClock(clock)
                .retryListener(new RetryListener() {
                    @Override
                    public void onRetriesExhausted(String name, int attempts, Throwable last) {
                        exhausted.add(name + " after " + attempts);
                    }
                }).build();

        catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(400))));
        catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(503))));

        assertThat(exhausted).containsExactly("model after 4");
    }

    @Test
    void aTokenCounterThatThrowsStillGivesTheHalfOpenProbeItsAnswer() {
        // Given a half-open breaker with one probe, and a token counter that fails
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofSeconds(1)).build(), clock);
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, 0);
        clock.advance(Duration.ofSeconds(1));
        Guard guard = Guard.builder("model").circuitBreaker(breaker).manualClock(clock)
                .tokens(result -> {
                    throw new IllegalStateException("no usage in the answer");
                }).build();

        // When the probe succeeds but its tokens cannot be counted
        assertThatThrownBy(() -> guard.execute(() -> "answer")).hasMessage("no usage in the answer");

        // Then the success was still recorded: the probe closed the breaker
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    // ---------------------------------------------------------------- breaker inside the guard

    @Test
    void anOpenBreakerRejectsWithoutCallingAndWithoutRetrying() {
        CircuitBreaker breaker = CircuitBreaker.of("tool", CircuitBreakerConfig.defaults(), clock);
        breaker.forceOpen("maintenance");
        Guard guard = Guard.builder("tool").retry(RetryPolicy.defaults()).circuitBreaker(breaker).manualClock(clock).build();

        assertThatThrownBy(() -> guard.execute(log.answering("never"))).isInstanceOf(CircuitOpenException.class);

        assertThat(log.count()).isZero();
        assertThat(clock.nanoTime()).isZero();
    }

    @Test
    void everyAttemptIsRecordedByTheBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("tool", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(4)).build(), clock);
        Guard guard = Guard.builder("tool").retry(RetryPolicy.builder().maxAttempts(3).build())
                .circuitBreaker(breaker).manualClock(clock).build();

        catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(500))));

        assertThat(breaker.snapshot().counts()).containsEntry("consecutiveErrors", 3L);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aClientErrorIsNeitherRetriedNorHeldAgainstTheBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("tool", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).build(), clock);
        Guard guard = Guard.builder("tool").retry(RetryPolicy.defaults()).circuitBreaker(breaker).manualClock(clock).build();

        Throwable thrown = catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(422))));

        assertThat(thrown).isSameAs(log.lastThrown());
        assertThat(log.count()).isEqualTo(1);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(breaker.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @Test
    void theCallersOwnOutOfMemoryIsNeitherRetriedNorHeldAgainstTheBreakerNorFallenBackFrom() {
        CircuitBreaker breaker = CircuitBreaker.of("tool", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).build(), clock);
        Guard guard = Guard.builder("tool").retry(RetryPolicy.defaults()).circuitBreaker(breaker).manualClock(clock).build();
        AtomicInteger fallbacks = new AtomicInteger();

        Throwable thrown = catchThrowable(() -> guard.execute(
                log.failingWith(attempt -> { throw new OutOfMemoryError("Java heap space"); }),
                () -> "fallback " + fallbacks.incrementAndGet()));

        assertThat(thrown).isInstanceOf(OutOfMemoryError.class).hasMessage("Java heap space");
        assertThat(log.count()).isEqualTo(1);
        assertThat(fallbacks).hasValue(0);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(breaker.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @Test
    void aSuccessUsingTooManyTokensTripsTokenOveruseButStillReturnsItsValue() {
        // Given a breaker that allows 1 000 tokens per call, and a guard that reads tokens from the answer
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.tokenOveruse(1_000)).build(), clock);
        Guard guard = Guard.builder("model").circuitBreaker(breaker).manualClock(clock)
                .tokens(answer -> ((Completion) answer).tokens()).build();

        // When a call succeeds within the limit, then one uses 5 000 tokens
        guard.execute(() -> new Completion("short", 900));
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        Completion big = guard.execute(() -> new Completion("very long", 5_000));

        // Then the answer is returned, and the breaker opens for token overuse
        assertThat(big.text()).isEqualTo("very long");
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).startsWith("tokenOveruse");
    }

    private record Completion(String text, long tokens) {
    }

    @Test
    void aResultRuleMakesABadAnswerRetryable() {
        OutcomeClassifier classifier = OutcomeClassifier.builder()
                .resultRule(result -> "busy".equals(result), Outcome.SERVER_ERROR).build();
        Guard guard = Guard.builder("tool").retry(RetryPolicy.defaults()).classifier(classifier).manualClock(clock).build();
        AtomicInteger attempt = new AtomicInteger();

        String answer = guard.execute(() -> attempt.incrementAndGet() < 3 ? "busy" : "done");

        assertThat(answer).isEqualTo("done");
        assertThat(clock.nanoTime()).isEqualTo(Duration.ofSeconds(6).toNanos());
    }

    // ---------------------------------------------------------------- events and waiting

    @Test
    void retryEventsNameEachScheduledAttemptItsDelayAndCauseThenTheGivingUp() {
        List<String> events = new CopyOnWriteArrayList<>();
        Guard guard = Guard.builder("model:claude-sonnet-4").retry(RetryPolicy.defaults()).manualClock(clock)
                .retryListener(new RetryListener() {
                    @Override
                    public void onRetryScheduled(String name, int nextAttempt, long delayNanos, Throwable cause) {
                        events.add(name + " attempt " + nextAttempt + " in " + delayNanos / 1_000_000 + " ms after " + cause.getMessage());
                    }

                    @Override
                    public void onRetriesExhausted(String name, int attempts, Throwable last) {
                        events.add(name + " gave up after " + attempts + " with " + last.getMessage());
                    }
                })
                .build();

        catchThrowable(() -> guard.execute(log.failingWith(attempt -> HttpStatusException.builder(500).body("#" + attempt).build())));

        assertThat(events).containsExactly(
                "model:claude-sonnet-4 attempt 2 in 2000 ms after HTTP 500: #1",
                "model:claude-sonnet-4 attempt 3 in 4000 ms after HTTP 500: #2",
                "model:claude-sonnet-4 attempt 4 in 8000 ms after HTTP 500: #3",
                "model:claude-sonnet-4 gave up after 4 with HTTP 500: #4");
    }

    @Test
    void anInterruptedWaitGivesUpWithTheLastErrorAndKeepsTheInterrupt() {
        Guard guard = Guard.builder("tool").retry(RetryPolicy.defaults()).manualClock(clock)
                .sleeper(nanos -> {
                    throw new InterruptedException("shutting down");
                })
                .build();

        Throwable thrown = catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(503))));

        assertThat(thrown).isSameAs(log.lastThrown());
        assertThat(log.count()).isEqualTo(1);
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void aGuardWithoutPartsIsAPlainCall() {
        Guard guard = Guard.builder("plain").build();

        assertThat(guard.execute(() -> 42)).isEqualTo(42);
        assertThat(guard.retryPolicy()).isEqualTo(RetryPolicy.none());
        assertThat(guard.circuitBreaker()).isNull();
        assertThat(guard.bulkhead()).isNull();
        assertThat(guard.timeout()).isNull();
        assertThat(guard).hasToString("Guard[plain]");
    }

    @Test
    void aNonPositiveTimeoutIsRejectedByTheBuilder() {
        assertThatThrownBy(() -> Guard.builder("tool").timeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout must be positive, but was PT-1S");
    }
}
