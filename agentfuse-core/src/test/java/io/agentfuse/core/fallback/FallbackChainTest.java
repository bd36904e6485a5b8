package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.breaker.Unstamped;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.CallTimeoutException;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The seed's {@code fallbacks: [claude-haiku-4, gpt-4o-mini, null]}, run synchronously. */
class FallbackChainTest {

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker sonnetBreaker = breaker("model:claude-sonnet-4", Duration.ofMinutes(5));
    private final CircuitBreaker haikuBreaker = breaker("model:claude-haiku-4", Duration.ofMinutes(2));
    private final CircuitBreaker miniBreaker = breaker("model:gpt-4o-mini", Duration.ofMinutes(1));
    private final AtomicInteger sonnetCalls = new AtomicInteger();
    private final AtomicInteger haikuCalls = new AtomicInteger();
    private final AtomicInteger miniCalls = new AtomicInteger();

    private CircuitBreaker breaker(String name, Duration resetTimeout) {
        return CircuitBreaker.of(name, CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(3)).resetTimeout(resetTimeout).build(), clock);
    }

    private Guard guard(CircuitBreaker breaker) {
        return Guard.builder(breaker.name()).circuitBreaker(breaker).manualClock(clock).build();
    }

    private static void trip(CircuitBreaker breaker) {
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(breaker, Outcome.SERVER_ERROR, 0);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    /** sonnet, then haiku, then gpt-4o-mini, then give up; each step's behaviour given by the test. */
    private FallbackChain<String, String> chain(RuntimeException sonnetError, RuntimeException haikuError,
                                                RuntimeException miniError) {
        return FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", guard(sonnetBreaker), prompt -> answer(sonnetCalls, sonnetError, "sonnet"))
                .step("claude-haiku-4", guard(haikuBreaker), prompt -> answer(haikuCalls, haikuError, "haiku"))
                .step("gpt-4o-mini", guard(miniBreaker), prompt -> answer(miniCalls, miniError, "mini"))
                .giveUp()
                .build();
    }

    private static String answer(AtomicInteger calls, RuntimeException error, String model) {
        calls.incrementAndGet();
        if (error != null) {
            throw error;
        }
        return "answer from " + model;
    }

    @Test
    void theFirstStepAnswersWhenItCan() {
        FallbackResult<String> result = chain(null, null, null).execute("hello");

        assertThat(result.value()).isEqualTo("answer from sonnet");
        assertThat(result.step()).isEqualTo("claude-sonnet-4");
        assertThat(result.stepIndex()).isZero();
        assertThat(result.fellBack()).isFalse();
        assertThat(result.passed()).isEmpty();
    }

    @Test
    void aStepWhoseBreakerIsOpenIsSkippedWithoutACall() {
        trip(sonnetBreaker);

        FallbackResult<String> result = chain(null, null, null).execute("hello");

        assertThat(sonnetCalls).hasValue(0);
        assertThat(result.value()).isEqualTo("answer from haiku");
        assertThat(result.step()).isEqualTo("claude-haiku-4");
        assertThat(result.fellBack()).isTrue();
        assertThat(result.passed()).singleElement().satisfies(passed -> {
            assertThat(passed.step()).isEqualTo("claude-sonnet-4");
            assertThat(passed.skipped()).isTrue();
            assertThat(passed.skippedByOpenCircuit()).isTrue();
            assertThat(passed.reason()).startsWith("circuit open").contains("consecutive5xx");
            assertThat(passed.retryAfterNanos()).isEqualTo(Duration.ofMinutes(5).toNanos());
        });
    }

    @Test
    void aFailingStepPassesToTheNextAndSaysWhy() {
        FallbackResult<String> result = chain(new HttpStatusException(503), null, null).execute("hello");

        assertThat(result.value()).isEqualTo("answer from haiku");
        assertThat(result.passed()).singleElement().satisfies(passed -> {
            assertThat(passed.skipped()).isFalse();
            assertThat(passed.outcome()).isEqualTo(Outcome.SERVER_ERROR);
            assertThat(passed.reason()).isEqualTo("SERVER_ERROR: HTTP 503");
        });
        assertThat(sonnetBreaker.snapshot().counts()).containsEntry("consecutive5xx", 1L);
    }

    @Test
    void aClientErrorIsThrownAsItIsWithoutFallingBack() {
        HttpStatusException badRequest = HttpStatusException.builder(400).body("max_tokens too large").build();

        assertThatThrownBy(() -> chain(badRequest, null, null).execute("hello")).isSameAs(badRequest);

        assertThat(haikuCalls).hasValue(0);
        assertThat(miniCalls).hasValue(0);
    }

    @Test
    void whenEveryStepFailsTheErrorListsEachStepAndWhy() {
        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> chain(new HttpStatusException(500), new HttpStatusException(529), new HttpStatusException(502))
                        .execute("hello"));

        assertThat(exhausted.steps()).extracting(StepFailure::step)
                .containsExactly("claude-sonnet-4", "claude-haiku-4", "gpt-4o-mini");
        assertThat(exhausted.steps()).extracting(StepFailure::outcome)
                .containsExactly(Outcome.SERVER_ERROR, Outcome.OVERLOADED, Outcome.SERVER_ERROR);
        assertThat(exhausted).hasMessage("all fallbacks failed: "
                + "claude-sonnet-4 failed (SERVER_ERROR: HTTP 500); "
                + "claude-haiku-4 failed (OVERLOADED: HTTP 529); "
                + "gpt-4o-mini failed (SERVER_ERROR: HTTP 502)");
        assertThat(exhausted.allCircuitsOpen()).isFalse();
        assertThat(exhausted.allCalledTimedOut()).isFalse();
        assertThat(exhausted.getCause()).isSameAs(exhausted.steps().get(2).cause());
    }

    @Test
    void whenEveryBreakerIsOpenNothingIsCalledAndTheSoonestReopeningIsKnown() {
        trip(sonnetBreaker);
        trip(haikuBreaker);
        trip(miniBreaker);
        clock.advance(Duration.ofSeconds(10));

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> chain(null, null, null).execute("hello"));

        assertThat(sonnetCalls.get() + haikuCalls.get() + miniCalls.get()).isZero();
        assertThat(exhausted.allCircuitsOpen()).isTrue();
        assertThat(exhausted.allCalledTimedOut()).isFalse();
        assertThat(exhausted.soonestRetryAfterNanos()).isEqualTo(Duration.ofSeconds(50).toNanos());
    }

    @Test
    void whenEveryStepThatWasCalledTimedOutTheChainSaysSo() {
        trip(sonnetBreaker);
        CallTimeoutException timeout = new CallTimeoutException(Duration.ofSeconds(60));

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> chain(null, timeout, timeout).execute("hello"));

        assertThat(exhausted.allCalledTimedOut()).isTrue();
        assertThat(exhausted.allCircuitsOpen()).isFalse();
        assertThat(exhausted.soonestRetryAfterNanos()).isEqualTo(Duration.ofMinutes(5).toNanos());
    }

    @Test
    void aTimeoutAmongOtherFailuresIsNotAllTimedOut() {
        CallTimeoutException timeout = new CallTimeoutException(Duration.ofSeconds(60));

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> chain(timeout, new HttpStatusException(500), timeout).execute("hello"));

        assertThat(exhausted.allCalledTimedOut()).isFalse();
        assertThat(exhausted.soonestRetryAfterNanos()).isEqualTo(-1);
    }

    @Test
    void aStepTimedOutByItsGuardCountsAsTimedOut() {
        Guard slow = Guard.builder("slow").timeout(Duration.ofSeconds(30)).manualClock(clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("slow", slow, prompt -> {
                    clock.advance(Duration.ofSeconds(31));
                    return "late";
                })
                .build();

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> chain.execute("hello"));

        assertThat(exhausted.allCalledTimedOut()).isTrue();
        assertThat(exhausted.steps().get(0).cause()).isInstanceOf(CallTimeoutException.class);
    }

    @Test
    void aStepSkippedForAReasonOfItsOwnIsNotCalled() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", guard(sonnetBreaker),
                        prompt -> prompt.contains("image") ? "cannot take images" : null,
                        prompt -> answer(sonnetCalls, null, "sonnet"))
                .step("gpt-4o-mini", guard(miniBreaker), prompt -> answer(miniCalls, null, "mini"))
                .build();

        FallbackResult<String> result = chain.execute("an image prompt");

        assertThat(sonnetCalls).hasValue(0);
        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed()).singleElement().satisfies(passed -> {
            assertThat(passed.skipped()).isTrue();
            assertThat(passed.skippedByOpenCircuit()).isFalse();
            assertThat(passed.reason()).isEqualTo("cannot take images");
            assertThat(passed).hasToString("claude-sonnet-4 skipped (cannot take images)");
        });
    }

    @Test
    void aStepWithAFullBulkheadIsSkipped() {
        Bulkhead full = Bulkhead.of("sonnet", 1);
        full.tryAcquire();
        Guard sonnet = Guard.builder("sonnet").bulkhead(full).manualClock(clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", sonnet, prompt -> answer(sonnetCalls, null, "sonnet"))
                .step("gpt-4o-mini", guard(miniBreaker), prompt -> answer(miniCalls, null, "mini"))
                .build();

        FallbackResult<String> result = chain.execute("hello");

        assertThat(sonnetCalls).hasValue(0);
        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed().get(0).skipped()).isTrue();
        assertThat(result.passed().get(0).cause()).isSameAs(full.rejection());
    }

    @Test
    void aStepRetriesBeforeTheChainFallsBack() {
        AttemptLog sonnetLog = new AttemptLog(clock);
        AttemptLog haikuLog = new AttemptLog(clock);
        Guard retrying = Guard.builder("sonnet").retry(RetryPolicy.defaults()).manualClock(clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", retrying, prompt -> sonnetLog.<String>failingWith(n -> new HttpStatusException(500)).get())
                .step("claude-haiku-4", guard(haikuBreaker), prompt -> haikuLog.answering("answer from haiku").get())
                .build();

        FallbackResult<String> result = chain.execute("hello");

        assertThat(result.value()).isEqualTo("answer from haiku");
        assertThat(sonnetLog.millis()).containsExactly(0L, 2_000L, 6_000L, 14_000L);
        assertThat(haikuLog.millis()).containsExactly(14_000L);
    }

    @Test
    void aResultThatTheClassifierCallsAFailurePassesToTheNextStep() {
        OutcomeClassifier classifier = OutcomeClassifier.builder()
                .resultRule(result -> "tool unavailable".equals(result), Outcome.SERVER_ERROR).build();
        Guard tool = Guard.builder("tool").classifier(classifier).manualClock(clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("primary", tool, query -> "tool unavailable")
                .step("backup", guard(miniBreaker), query -> "found it")
                .build();

        FallbackResult<String> result = chain.execute("search");

        assertThat(result.value()).isEqualTo("found it");
        assertThat(result.passed()).singleElement().extracting(StepFailure::outcome).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void fallbackOnDecidesWhichOutcomesMoveOn() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", guard(sonnetBreaker), prompt -> answer(sonnetCalls, new HttpStatusException(429), "sonnet"))
                .step("claude-haiku-4", guard(haikuBreaker), prompt -> answer(haikuCalls, null, "haiku"))
                .fallbackOn(outcome -> outcome == Outcome.SERVER_ERROR)
                .build();

        assertThatThrownBy(() -> chain.execute("hello")).isInstanceOf(HttpStatusException.class);
        assertThat(haikuCalls).hasValue(0);
    }

    @Test
    void aStepAfterGiveUpIsRejectedWhenBuilding() {
        FallbackChain.Builder<String, String> builder = FallbackChain.<String, String>builder()
                .step("claude-haiku-4", guard(haikuBreaker), prompt -> "answer")
                .giveUp();

        assertThatThrownBy(() -> builder.step("gpt-4o-mini", guard(miniBreaker), prompt -> "answer"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("step 'gpt-4o-mini' comes after giveUp(): it could never run");
    }

    @Test
    void aChainNeedsAtLeastOneStep() {
        assertThatThrownBy(() -> FallbackChain.<String, String>builder().giveUp().build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anAsynchronousStepCannotRunSynchronously() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("claude-haiku-4", guard(haikuBreaker), prompt -> CompletableFuture.completedFuture("answer"))
                .build();

        assertThatThrownBy(() -> chain.execute("hello"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("executeAsync");
        assertThat(chain.stepNames()).containsExactly("claude-haiku-4");
    }
}
