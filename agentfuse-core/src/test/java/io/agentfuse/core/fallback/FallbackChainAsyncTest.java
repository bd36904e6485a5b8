package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptLog;
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

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fallback chain on the asynchronous path: the same decisions, without blocking. */
class FallbackChainAsyncTest {

    private final ManualClock clock = new ManualClock();
    private final AtomicInteger primaryCalls = new AtomicInteger();
    private final AtomicInteger backupCalls = new AtomicInteger();

    private CircuitBreaker breaker(String name) {
        return CircuitBreaker.of(name, CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(1)).resetTimeout(Duration.ofMinutes(5)).build(), clock);
    }

    private Guard guard(CircuitBreaker breaker) {
        return Guard.builder(breaker.name()).circuitBreaker(breaker).manualClock(clock).build();
    }

    private Function<String, CompletionStage<String>> counting(AtomicInteger calls, CompletionStage<String> stage) {
        return prompt -> {
            calls.incrementAndGet();
            return stage;
        };
    }

    @Test
    void aStepWhoseBreakerIsOpenIsSkippedWithoutACall() {
        CircuitBreaker primary = breaker("primary");
        Unstamped.outcome(primary, Outcome.SERVER_ERROR, 0);
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(primary), counting(primaryCalls, CompletableFuture.completedFuture("p")))
                .asyncStep("backup", guard(breaker("backup")), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");

        assertThat(primaryCalls).hasValue(0);
        assertThat(result.join().value()).isEqualTo("b");
        assertThat(result.join().passed()).singleElement().satisfies(passed ->
                assertThat(passed.skippedByOpenCircuit()).isTrue());
    }

    @Test
    void aFailedStepPassesToTheNextOnceItsAnswerArrives() {
        CompletableFuture<String> primaryAnswer = new CompletableFuture<>();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(breaker("primary")), counting(primaryCalls, primaryAnswer))
                .asyncStep("backup", guard(breaker("backup")), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");
        assertThat(result).isNotDone();
        assertThat(backupCalls).hasValue(0);
        primaryAnswer.completeExceptionally(new HttpStatusException(502));

        assertThat(result.join().step()).isEqualTo("backup");
        assertThat(result.join().stepIndex()).isEqualTo(1);
        assertThat(result.join().passed()).singleElement().extracting(StepFailure::outcome).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void aClientErrorFailsTheChainAsItIs() {
        HttpStatusException notFound = new HttpStatusException(404);
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(breaker("primary")), counting(primaryCalls, CompletableFuture.failedFuture(notFound)))
                .asyncStep("backup", guard(breaker("backup")), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");

        assertThatThrownBy(result::join).hasCause(notFound);
        assertThat(backupCalls).hasValue(0);
    }

    @Test
    void theCallersOwnOutOfMemoryFailsTheChainWithoutFallingBackOrBlamingTheStep() {
        OutOfMemoryError heap = new OutOfMemoryError("Java heap space");
        CircuitBreaker primary = CircuitBreaker.of("primary", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).build(), clock);
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(primary), counting(primaryCalls, CompletableFuture.failedFuture(heap)))
                .asyncStep("backup", guard(breaker("backup")), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");

        assertThatThrownBy(result::join).hasCause(heap);
        assertThat(backupCalls).as("a fallback would need the memory that ran out").hasValue(0);
        assertThat(primary.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(primary.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @Test
    void whenEveryStepFailsTheFutureFailsListingEachStep() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(breaker("primary")),
                        counting(primaryCalls, CompletableFuture.failedFuture(new HttpStatusException(500))))
                .asyncStep("backup", guard(breaker("backup")),
                        counting(backupCalls, CompletableFuture.failedFuture(new HttpStatusException(503))))
                .giveUp()
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");

        assertThatThrownBy(result::join).cause().isInstanceOfSatisfying(FallbackExhaustedException.class, exhausted -> {
            assertThat(exhausted.steps()).extracting(StepFailure::step).containsExactly("primary", "backup");
            assertThat(exhausted.steps()).allMatch(step -> !step.skipped() && step.outcome() == Outcome.SERVER_ERROR);
        });
    }

    @Test
    void whenEveryBreakerIsOpenTheFutureFailsAtOnceWithTheSoonestReopening() {
        CircuitBreaker primary = breaker("primary");
        CircuitBreaker backup = breaker("backup");
        Unstamped.outcome(primary, Outcome.SERVER_ERROR, 0);
        clock.advance(Duration.ofMinutes(1));
        Unstamped.outcome(backup, Outcome.SERVER_ERROR, 0);
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(primary), counting(primaryCalls, CompletableFuture.completedFuture("p")))
                .asyncStep("backup", guard(backup), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");

        assertThat(primaryCalls.get() + backupCalls.get()).isZero();
        assertThatThrownBy(result::join).cause().isInstanceOfSatisfying(FallbackExhaustedException.class, exhausted -> {
            assertThat(exhausted.allCircuitsOpen()).isTrue();
            assertThat(exhausted.soonestRetryAfterNanos()).isEqualTo(Duration.ofMinutes(4).toNanos());
        });
    }

    @Test
    void whenEveryCalledStepTimesOutTheChainSaysSo() {
        Guard primary = Guard.builder("primary").timeout(Duration.ofSeconds(30)).manualClock(clock).build();
        Guard backup = Guard.builder("backup").timeout(Duration.ofSeconds(30)).manualClock(clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", primary, prompt -> new CompletableFuture<>())
                .asyncStep("backup", backup, prompt -> new CompletableFuture<>())
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");
        clock.advance(Duration.ofSeconds(30));
        assertThat(result).as("the backup has only just started").isNotDone();
        clock.advance(Duration.ofSeconds(30));

        assertThatThrownBy(result::join).cause().isInstanceOfSatisfying(FallbackExhaustedException.class, exhausted ->
                assertThat(exhausted.allCalledTimedOut()).isTrue());
    }

    @Test
    void aStepSkippedForAReasonOfItsOwnIsNotCalled() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(breaker("primary")), prompt -> prompt.length() > 5 ? "prompt too long" : null,
                        counting(primaryCalls, CompletableFuture.completedFuture("p")))
                .asyncStep("backup", guard(breaker("backup")), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();

        FallbackResult<String> result = chain.executeAsync("a long prompt").join();

        assertThat(primaryCalls).hasValue(0);
        assertThat(result.value()).isEqualTo("b");
        assertThat(result.passed()).singleElement().extracting(StepFailure::reason).isEqualTo("prompt too long");
    }

    @Test
    void aSynchronousStepRunsOnTheAsynchronousPathToo() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("primary", guard(breaker("primary")), prompt -> {
                    throw new HttpStatusException(500);
                })
                .step("backup", guard(breaker("backup")), prompt -> "b")
                .build();

        assertThat(chain.executeAsync("hello").join().value()).isEqualTo("b");
    }

    @Test
    void aStepRetriesOnTheSchedulerBeforeTheChainFallsBack() {
        AttemptLog primaryLog = new AttemptLog(clock);
        Guard retrying = Guard.builder("primary").retry(RetryPolicy.defaults()).manualClock(clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", retrying, prompt -> primaryLog.<String>failingAsyncWith(n -> new HttpStatusException(500)).get())
                .asyncStep("backup", guard(breaker("backup")), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();

        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");
        clock.advanceMillis(13_999);
        assertThat(backupCalls).hasValue(0);
        clock.advanceMillis(1);

        assertThat(primaryLog.millis()).containsExactly(0L, 2_000L, 6_000L, 14_000L);
        assertThat(result.join().value()).isEqualTo("b");
    }

    @Test
    void cancellingTheChainCancelsTheStepInFlightAndCallsNoFurtherStep() {
        CompletableFuture<String> primaryAnswer = new CompletableFuture<>();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(breaker("primary")), counting(primaryCalls, primaryAnswer))
                .asyncStep("backup", guard(breaker("backup")), counting(backupCalls, CompletableFuture.completedFuture("b")))
                .build();
        CompletableFuture<FallbackResult<String>> result = chain.executeAsync("hello");

        result.cancel(true);

        assertThat(primaryAnswer).as("the step in flight is cancelled").isCancelled();
        assertThat(backupCalls).as("nobody waits for a fallback any more").hasValue(0);
    }

    @Test
    void aChainCancelledWhileItsNextStepStartsCancelsThatStep() {
        CompletableFuture<String> backupCall = new CompletableFuture<>();
        AtomicReference<CompletableFuture<FallbackResult<String>>> result = new AtomicReference<>();
        CompletableFuture<String> primaryCall = new CompletableFuture<>();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard(breaker("primary")), counting(primaryCalls, primaryCall))
                .asyncStep("backup", guard(breaker("backup")), prompt -> {
                    result.get().cancel(true); // the caller gives up before the chain knows of this step's call
                    return backupCall;
                })
                .build();

        result.set(chain.executeAsync("hello"));
        primaryCall.completeExceptionally(new HttpStatusException(503));

        assertThat(result.get()).isCancelled();
        assertThat(backupCall).isCancelled();
    }
}
