package io.agentfuse.core.scenario;

import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.scenario.BothPaths.Ended;
import io.agentfuse.core.scenario.BothPaths.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.CompletableFuture;

import static io.agentfuse.core.scenario.BothPaths.catchFailure;
import static io.agentfuse.core.scenario.BothPaths.unwrap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every breaker scenario runs twice, through {@link Guard#execute} and {@link Guard#executeAsync}
 * ({@link BothPaths}), and must end the same way: a breaker open before the call rejects it, one
 * opened by another caller meanwhile never hides the call's real failure, and an inner breaker's
 * rejection is neither retried nor counted by the outer one.
 */
class SyncAsyncBreakerParityTest {

    private final BothPaths paths = new BothPaths();

    @ParameterizedTest
    @EnumSource(Path.class)
    void aBreakerOpenedByAnotherCallerDuringTheBackoffEndsWithTheRealFailure(Path path) {
        // Given another caller trips the breaker while this call waits to retry
        paths.duringFirstWait(paths::tripByAnotherCaller);

        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()), attempt -> new HttpStatusException(502));

        // Then the call was made, so it ends with its failure, never with circuit_open
        assertThat(ended.failure()).isInstanceOf(HttpStatusException.class);
        assertThat(paths.attemptMillis).containsExactly(0L);
        assertThat(paths.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aChainStepThatWasCalledIsNeverReportedAsSkippedWhenItsBreakerOpensMeanwhile(Path path) {
        paths.duringFirstWait(paths::tripByAnotherCaller);
        Guard guard = paths.guard(RetryPolicy.defaults());
        Throwable thrown;
        if (path == Path.SYNC) {
            thrown = catchFailure(() -> FallbackChain.<String, String>builder()
                    .step("sonnet", guard, prompt -> paths.failingCall(attempt -> new HttpStatusException(502)).get())
                    .giveUp().build().execute("hi"));
        } else {
            CompletableFuture<?> future = FallbackChain.<String, String>builder()
                    .asyncStep("sonnet", guard, prompt -> paths.asyncCall(attempt -> new HttpStatusException(502)).get())
                    .giveUp().build().executeAsync("hi");
            for (int step = 0; step < 600 && !future.isDone(); step++) {
                paths.clock.advanceMillis(100);
            }
            thrown = future.handle((value, error) -> error).join();
        }

        StepFailure step = ((FallbackExhaustedException) unwrap(thrown)).steps().get(0);
        assertThat(step.skipped()).as("the step was called").isFalse();
        assertThat(step.outcome()).isEqualTo(Outcome.SERVER_ERROR);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aBreakerOpenBeforeTheFirstAttemptRejectsWithoutACall(Path path) {
        paths.tripByAnotherCaller();

        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()), attempt -> null);

        assertThat(ended.failure()).isInstanceOf(CircuitOpenException.class);
        assertThat(paths.attemptMillis).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anInnerBreakersRejectionIsNeitherRetriedNorCountedByTheOuterBreaker(Path path) {
        CircuitBreaker inner = CircuitBreaker.of("tool:search/web", CircuitBreakerConfig.defaults(), paths.clock);
        inner.forceOpen("maintenance");
        CircuitOpenException innerRejection = inner.currentRejection().exception();

        Ended ended = paths.run(path, paths.guard(RetryPolicy.builder().retryOn(Outcome.ERROR).build()), attempt -> innerRejection);

        assertThat(ended.failure()).isSameAs(innerRejection);
        assertThat(paths.attemptMillis).containsExactly(0L);
        assertThat(paths.breaker.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetriedResultWhoseRetryTheBreakerRefusesIsReturnedNotRejected(Path path) {
        // Given answers that a result rule calls server errors, and another caller tripping the breaker meanwhile
        paths.duringFirstWait(paths::tripByAnotherCaller);
        Guard guard = Guard.builder("model:sonnet").retry(RetryPolicy.defaults()).circuitBreaker(paths.breaker)
                .classifier(OutcomeClassifier.builder().resultRule("answer"::equals, Outcome.SERVER_ERROR).build())
                .manualClock(paths.clock).sleeper(nanos -> {
                    paths.runFirstWaitHook();
                    paths.clock.sleep(nanos);
                }).scheduler((task, delayNanos) -> {
                    paths.runFirstWaitHook();
                    return paths.clock.schedule(task, delayNanos);
                }).build();

        Ended ended = paths.run(path, guard, attempt -> null);

        // Then the answer that was received is returned
        assertThat(ended.value()).isEqualTo("answer");
        assertThat(paths.attemptMillis).containsExactly(0L);
    }
}
