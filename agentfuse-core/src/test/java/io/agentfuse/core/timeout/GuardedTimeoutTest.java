package io.agentfuse.core.timeout;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.retry.RetryPolicy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A timeout inside a guard: timed-out attempts count for the breaker's {@code consecutiveTimeouts} trigger
 * and are retried, a late answer is ignored, and no timer outlives the attempt it bounds.
 */
class GuardedTimeoutTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void asynchronousTimeoutsCountForTheConsecutiveTimeoutsTrigger() {
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveTimeouts(2, Duration.ofSeconds(60))).build(), clock);
        Guard guard = Guard.builder("model").circuitBreaker(breaker).timeout(Duration.ofSeconds(5)).manualClock(clock).build();

        CompletableFuture<String> first = guard.executeAsync(CompletableFuture::new);
        CompletableFuture<String> second = guard.executeAsync(CompletableFuture::new);
        clock.advance(Duration.ofSeconds(5));

        assertThatThrownBy(first::join).cause().isInstanceOf(CallTimeoutException.class);
        assertThatThrownBy(second::join).cause().isInstanceOf(CallTimeoutException.class);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).startsWith("consecutiveTimeouts");
    }

    @Test
    void aGuardedAsyncAttemptThatTimesOutCancelsItsCallAndIgnoresItsLateAnswer() {
        Guard guard = Guard.builder("model").timeout(Duration.ofSeconds(5)).manualClock(clock).build();
        CompletableFuture<String> call = new CompletableFuture<>();
        List<AttemptResult> attempts = new ArrayList<>();

        CompletableFuture<String> result = guard.executeAsync(attempts::add, () -> call);
        clock.advance(Duration.ofSeconds(5));
        call.complete("late"); // no effect: the call was cancelled, and the attempt ended already

        assertThatThrownBy(result::join).cause().isInstanceOf(CallTimeoutException.class);
        assertThat(call).isCancelled();
        assertThat(attempts).extracting(AttemptResult::outcome).containsExactly(Outcome.TIMEOUT);
    }

    @Test
    void aGuardedAsyncAnswerInTimeStopsItsTimer() {
        Guard guard = Guard.builder("model").timeout(Duration.ofSeconds(5)).manualClock(clock).build();
        CompletableFuture<String> call = new CompletableFuture<>();

        CompletableFuture<String> result = guard.executeAsync(() -> call);
        assertThat(clock.pendingTasks()).isEqualTo(1);
        call.complete("answer");

        assertThat(clock.pendingTasks()).isZero();
        clock.advance(Duration.ofSeconds(10));
        assertThat(result.join()).isEqualTo("answer");
    }

    @Test
    void aGuardedAsyncCallThatAnswersAtOnceSetsNoTimer() {
        Guard guard = Guard.builder("model").timeout(Duration.ofSeconds(5)).manualClock(clock).build();

        CompletableFuture<String> result = guard.executeAsync(() -> CompletableFuture.completedFuture("at once"));

        assertThat(result.join()).isEqualTo("at once");
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void aRetryWhoseCallerGivesUpWhileItStartsIsCancelled() {
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).timeout(Duration.ofSeconds(5))
                .manualClock(clock).build();
        CompletableFuture<String> retried = new CompletableFuture<>();
        AtomicReference<CompletableFuture<String>> result = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();

        result.set(guard.executeAsync(() -> {
            if (calls.incrementAndGet() == 1) {
                return CompletableFuture.failedFuture(new HttpStatusException(503));
            }
            result.get().cancel(true); // the caller gives up before the guard knows of this call
            return retried;
        }));
        clock.advance(Duration.ofSeconds(2));

        assertThat(calls).hasValue(2);
        assertThat(result.get()).isCancelled();
        assertThat(retried).isCancelled();
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void synchronousTimeoutsCountForTheConsecutiveTimeoutsTrigger() {
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveTimeouts(2, Duration.ofSeconds(60))).build(), clock);
        Guard guard = Guard.builder("model").circuitBreaker(breaker).timeout(Duration.ofSeconds(5)).manualClock(clock).build();

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> guard.execute(() -> {
                clock.advance(Duration.ofSeconds(6));
                return "late";
            })).isInstanceOf(CallTimeoutException.class);
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).startsWith("consecutiveTimeouts");
    }

    @Test
    void aTimedOutAttemptIsRetriedAfterTheBackoff() {
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).timeout(Duration.ofSeconds(1))
                .manualClock(clock).build();
        AttemptLog log = new AttemptLog(clock);

        String answer = guard.execute(() -> {
            if (log.count() == 0) {
                log.answering("ignored").get();
                clock.advance(Duration.ofSeconds(2));
                return "too late";
            }
            return log.answering("second try").get();
        });

        assertThat(answer).isEqualTo("second try");
        assertThat(log.millis()).as("1 s timeout noticed at 2 s, then a 2 s wait").containsExactly(0L, 4_000L);
    }
}
