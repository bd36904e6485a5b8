package io.agentfuse.core.breaker;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.StepFailure;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** An inner breaker's rejection is not a failure of the outer breaker, and the outer step was called (docs/design.md §3). */
class NestedBreakersTest {

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker outer = CircuitBreaker.of("model:agent", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(1)).build(), clock);
    private final CircuitBreaker inner = CircuitBreaker.of("tool:search/web", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(1)).build(), clock);

    private String callThroughInner() {
        return inner.executeSupplier(() -> "page");
    }

    @Test
    void theOuterBreakerNeitherOpensNorCountsWhenTheInnerOneRejects() {
        inner.forceOpen("maintenance");

        Throwable thrown = catchThrowable(() -> outer.executeSupplier(this::callThroughInner));

        assertThat(thrown).isInstanceOf(CircuitOpenException.class);
        assertThat(outer.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(outer.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @Test
    void aGuardAroundTheOuterBreakerReleasesItsPermitSoAHalfOpenProbeIsNotLost() {
        outer.forceOpen("test");
        outer.reset();
        inner.forceOpen("maintenance");
        Guard guard = Guard.builder("model:agent").circuitBreaker(outer).manualClock(clock).build();

        catchThrowable(() -> guard.execute(this::callThroughInner));

        assertThat(outer.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(guard.execute(() -> "answer")).isEqualTo("answer");
    }

    @Test
    void aChainFilesTheInnerRejectionAsAFailedStepThatWasCalled() {
        inner.forceOpen("maintenance");
        Guard guard = Guard.builder("model:agent").circuitBreaker(outer).manualClock(clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("agent", guard, prompt -> callThroughInner()).giveUp().build();

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class, () -> chain.execute("hi"));

        StepFailure step = exhausted.steps().get(0);
        assertThat(step.skipped()).isFalse();
        assertThat(exhausted.allCircuitsOpen()).as("not circuit_open: the step was called").isFalse();
    }
}
