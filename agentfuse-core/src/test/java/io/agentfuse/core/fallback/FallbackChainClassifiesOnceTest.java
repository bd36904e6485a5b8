package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.retry.RetryPolicy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A step's failure is classified once, by its guard; the chain and its observer read that classification. */
class FallbackChainClassifiesOnceTest {

    private final ManualClock clock = new ManualClock();
    private final AtomicInteger classifications = new AtomicInteger();
    private final List<String> seen = new ArrayList<>();

    /** A classifier that counts how often it is asked about an error, and calls every error SERVER_ERROR. */
    private final OutcomeClassifier counting = OutcomeClassifier.builder()
            .exceptionRule(error -> classifications.incrementAndGet() > 0, Outcome.SERVER_ERROR)
            .build();

    private Guard guard(String name, int attempts) {
        return Guard.builder(name).classifier(counting).manualClock(clock)
                .retry(RetryPolicy.builder().maxAttempts(attempts).initialDelay(Duration.ZERO).build())
                .build();
    }

    private void record(String step, AttemptResult attempt) {
        seen.add(step + "=" + attempt.outcome());
    }

    @Test
    void aFailedStepIsClassifiedOnceForEachAttemptAndTheChainReadsIt() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("primary", guard("primary", 2), prompt -> {
                    throw new IllegalStateException("the answer was cut short");
                })
                .step("backup", guard("backup", 1), prompt -> "answer from backup")
                .onAttempt(this::record)
                .build();

        FallbackResult<String> result = chain.execute("hello");

        assertThat(result.step()).isEqualTo("backup");
        assertThat(result.passed()).singleElement()
                .satisfies(step -> assertThat(step.outcome()).isEqualTo(Outcome.SERVER_ERROR));
        assertThat(classifications).as("one classification per failed attempt").hasValue(2);
        assertThat(seen).containsExactly("primary=SERVER_ERROR", "primary=SERVER_ERROR", "backup=SUCCESS");
    }

    @Test
    void theAsynchronousChainReadsTheSameOneClassification() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard("primary", 1),
                        prompt -> CompletableFuture.failedFuture(HttpStatusException.builder(503).build()))
                .asyncStep("backup", guard("backup", 1), prompt -> CompletableFuture.completedFuture("answer from backup"))
                .onAttempt(this::record)
                .build();

        FallbackResult<String> result = chain.executeAsync("hello").join();

        assertThat(result.step()).isEqualTo("backup");
        assertThat(result.passed()).singleElement()
                .satisfies(step -> assertThat(step.kind()).isEqualTo(StepFailure.Kind.FAILED));
        assertThat(classifications).hasValue(1);
        assertThat(seen).containsExactly("primary=SERVER_ERROR", "backup=SUCCESS");
    }

    @Test
    void anAttemptListenerSeesTheInputOfTheExecutionEachAttemptBelongsTo() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("primary", guard("primary", 1),
                        prompt -> CompletableFuture.failedFuture(HttpStatusException.builder(503).build()))
                .asyncStep("backup", guard("backup", 1), prompt -> CompletableFuture.completedFuture("answer to " + prompt))
                .observeAttempts((prompt, step, attempt) -> seen.add(prompt + ":" + step + "=" + attempt.outcome()))
                .build();

        chain.executeAsync("first").join();
        chain.executeAsync("second").join();

        assertThat(seen).containsExactly("first:primary=SERVER_ERROR", "first:backup=SUCCESS",
                "second:primary=SERVER_ERROR", "second:backup=SUCCESS");
    }
}
