package io.agentfuse.core.timeout;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.SpinWait;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.retry.RetryPolicy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class TimeoutTest {

    private final ManualClock clock = new ManualClock();
    private final Timeout timeout = Timeout.of(Duration.ofSeconds(30), clock);

    @AfterEach
    void leaveTheTestThreadUninterrupted() {
        Thread.interrupted();
    }

    // ---------------------------------------------------------------- asynchronous

    @Test
    void aStageThatNeverCompletesFailsWhenTheTimeoutPassesAndIsCancelled() {
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletableFuture<String> limited = timeout.within(never);

        clock.advanceMillis(29_999);
        assertThat(limited).isNotDone();
        clock.advanceMillis(1);

        assertThat(limited).isCompletedExceptionally();
        assertThatThrownBy(limited::join).cause().isInstanceOf(CallTimeoutException.class)
                .satisfies(e -> assertThat(((CallTimeoutException) e).timeout()).isEqualTo(Duration.ofSeconds(30)));
        assertThat(never).isCancelled();
    }

    @Test
    void aStageThatCompletesInTimeKeepsItsValueAndStopsTheTimer() {
        CompletableFuture<String> answer = new CompletableFuture<>();
        CompletableFuture<String> limited = timeout.within(answer);

        answer.complete("on time");

        assertThat(limited).isCompletedWithValue("on time");
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void aStageThatFailsInTimeKeepsItsError() {
        HttpStatusException error = new HttpStatusException(502);

        CompletableFuture<String> limited = timeout.within(CompletableFuture.failedFuture(error));

        assertThatThrownBy(limited::join).hasCause(error);
    }

    @Test
    void cancellingTheLimitedStageCancelsTheSourceAndTheTimer() {
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<String> limited = timeout.within(source);

        limited.cancel(true);

        assertThat(source).isCancelled();
        assertThat(clock.pendingTasks()).isZero();
    }

    // ---------------------------------------------------------------- synchronous

    @Test
    void aCallThatOutlivesTheTimeoutIsInterruptedAndReportedAsATimeout() {
        AtomicBoolean interruptedInside = new AtomicBoolean();

        Throwable thrown = catchThrowable(() -> timeout.call(() -> {
            clock.advance(Duration.ofSeconds(31));
            interruptedInside.set(Thread.currentThread().isInterrupted());
            return "too late";
        }));

        assertThat(thrown).isInstanceOf(CallTimeoutException.class);
        assertThat(interruptedInside).as("the call was interrupted").isTrue();
        assertThat(Thread.currentThread().isInterrupted()).as("the caller's flag is clear").isFalse();
    }

    @Test
    void aBlockedCallIsWokenByTheTimerAndReportedAsATimeout() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            AtomicBoolean flagAfterwards = new AtomicBoolean(true);
            Future<Throwable> outcome = caller.submit(() -> {
                Throwable thrown = catchThrowable(() -> timeout.call(() -> {
                    blocked.countDown();
                    try {
                        never.await();
                        return "impossible";
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("interrupted while waiting for the tool", e);
                    }
                }));
                flagAfterwards.set(Thread.currentThread().isInterrupted());
                return thrown;
            });
            assertThat(blocked.await(30, TimeUnit.SECONDS)).isTrue();
            SpinWait.until(() -> clock.pendingTasks() == 1, "the timer is scheduled");

            clock.advance(Duration.ofSeconds(30));

            assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOf(CallTimeoutException.class);
            assertThat(flagAfterwards).isFalse();
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void aCallThatFinishesInTimeReturnsItsValueAndStopsTheTimer() {
        String answer = timeout.call(() -> {
            clock.advance(Duration.ofSeconds(29));
            return "on time";
        });

        assertThat(answer).isEqualTo("on time");
        assertThat(clock.pendingTasks()).isZero();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aCallThatFailsInTimeKeepsItsError() {
        HttpStatusException error = new HttpStatusException(500);

        assertThatThrownBy(() -> timeout.call(() -> {
            throw error;
        })).isSameAs(error);
    }

    @Test
    void aCallerThatWasAlreadyInterruptedStaysInterruptedAfterACallInTime() {
        Thread.currentThread().interrupt();

        timeout.call(() -> "on time");

        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void aCallerThatWasAlreadyInterruptedStaysInterruptedAfterATimeout() {
        Thread.currentThread().interrupt();

        Throwable thrown = catchThrowable(() -> timeout.call(() -> {
            clock.advance(Duration.ofSeconds(31));
            return "too late";
        }));

        assertThat(thrown).isInstanceOf(CallTimeoutException.class);
        assertThat(Thread.interrupted()).as("the caller's own interrupt is not swallowed").isTrue();
    }

    @Test
    void aTimeoutMustBePositive() {
        assertThatThrownBy(() -> Timeout.of(Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout must be positive, but was PT0S");
    }

    // ---------------------------------------------------------------- in a guard

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
