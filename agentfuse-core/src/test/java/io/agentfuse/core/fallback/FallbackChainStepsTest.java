package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.retry.RetryPolicy;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.agentfuse.core.fallback.SeedFallbacks.answer;
import static io.agentfuse.core.fallback.SeedFallbacks.trip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The seed's {@code fallbacks: [claude-haiku-4, gpt-4o-mini, null]}, run synchronously: which step answers,
 * which are passed and why (an open breaker, a failure, a skip of its own, a full bulkhead), and what stops the chain.
 */
class FallbackChainStepsTest {

    private final SeedFallbacks seed = new SeedFallbacks();

    @Test
    void theFirstStepAnswersWhenItCan() {
        FallbackResult<String> result = seed.chain(null, null, null).execute("hello");

        assertThat(result.value()).isEqualTo("answer from sonnet");
        assertThat(result.step()).isEqualTo("claude-sonnet-4");
        assertThat(result.stepIndex()).isZero();
        assertThat(result.fellBack()).isFalse();
        assertThat(result.passed()).isEmpty();
    }

    @Test
    void aStepWhoseBreakerIsOpenIsSkippedWithoutACall() {
        trip(seed.sonnetBreaker);

        FallbackResult<String> result = seed.chain(null, null, null).execute("hello");

        assertThat(seed.sonnetCalls).hasValue(0);
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
        FallbackResult<String> result = seed.chain(new HttpStatusException(503), null, null).execute("hello");

        assertThat(result.value()).isEqualTo("answer from haiku");
        assertThat(result.passed()).singleElement().satisfies(passed -> {
            assertThat(passed.skipped()).isFalse();
            assertThat(passed.outcome()).isEqualTo(Outcome.SERVER_ERROR);
            assertThat(passed.reason()).isEqualTo("SERVER_ERROR: HTTP 503");
        });
        assertThat(seed.sonnetBreaker.snapshot().counts()).containsEntry("consecutive5xx", 1L);
    }

    @Test
    void aClientErrorIsThrownAsItIsWithoutFallingBack() {
        HttpStatusException badRequest = HttpStatusException.builder(400).body("max_tokens too large").build();

        assertThatThrownBy(() -> seed.chain(badRequest, null, null).execute("hello")).isSameAs(badRequest);

        assertThat(seed.haikuCalls).hasValue(0);
        assertThat(seed.miniCalls).hasValue(0);
    }

    @Test
    void aStepSkippedForAReasonOfItsOwnIsNotCalled() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", seed.guard(seed.sonnetBreaker),
                        prompt -> prompt.contains("image") ? "cannot take images" : null,
                        prompt -> answer(seed.sonnetCalls, null, "sonnet"))
                .step("gpt-4o-mini", seed.guard(seed.miniBreaker), prompt -> answer(seed.miniCalls, null, "mini"))
                .build();

        FallbackResult<String> result = chain.execute("an image prompt");

        assertThat(seed.sonnetCalls).hasValue(0);
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
        Guard sonnet = Guard.builder("sonnet").bulkhead(full).manualClock(seed.clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", sonnet, prompt -> answer(seed.sonnetCalls, null, "sonnet"))
                .step("gpt-4o-mini", seed.guard(seed.miniBreaker), prompt -> answer(seed.miniCalls, null, "mini"))
                .build();

        FallbackResult<String> result = chain.execute("hello");

        assertThat(seed.sonnetCalls).hasValue(0);
        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed().get(0).skipped()).isTrue();
        assertThat(result.passed().get(0).cause()).isSameAs(full.rejection());
    }

    @Test
    void aStepRetriesBeforeTheChainFallsBack() {
        AttemptLog sonnetLog = new AttemptLog(seed.clock);
        AttemptLog haikuLog = new AttemptLog(seed.clock);
        Guard retrying = Guard.builder("sonnet").retry(RetryPolicy.defaults()).manualClock(seed.clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", retrying, prompt -> sonnetLog.<String>failingWith(n -> new HttpStatusException(500)).get())
                .step("claude-haiku-4", seed.guard(seed.haikuBreaker), prompt -> haikuLog.answering("answer from haiku").get())
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
        Guard tool = Guard.builder("tool").classifier(classifier).manualClock(seed.clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("primary", tool, query -> "tool unavailable")
                .step("backup", seed.guard(seed.miniBreaker), query -> "found it")
                .build();

        FallbackResult<String> result = chain.execute("search");

        assertThat(result.value()).isEqualTo("found it");
        assertThat(result.passed()).singleElement().extracting(StepFailure::outcome).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void fallbackOnDecidesWhichOutcomesMoveOn() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", seed.guard(seed.sonnetBreaker), prompt -> answer(seed.sonnetCalls, new HttpStatusException(429), "sonnet"))
                .step("claude-haiku-4", seed.guard(seed.haikuBreaker), prompt -> answer(seed.haikuCalls, null, "haiku"))
                .fallbackOn(outcome -> outcome == Outcome.SERVER_ERROR)
                .build();

        assertThatThrownBy(() -> chain.execute("hello")).isInstanceOf(HttpStatusException.class);
        assertThat(seed.haikuCalls).hasValue(0);
    }
}
