package io.agentfuse.core.scenario;

import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.core.timeout.DeadlineExceededException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static io.agentfuse.core.scenario.ScriptedCalls.answers;
import static io.agentfuse.core.scenario.ScriptedCalls.hangs;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fallback chain under one deadline (docs/design.md §13): a step that cannot fit the time left is
 * not started, and the chain answers within the deadline or fails at it, never later. Every
 * scenario runs through {@link FallbackChain#execute(Object, Deadline)} and its asynchronous twin.
 */
class ChainDeadlineTest {

    /** The two halves of the chain. */
    enum Path { SYNC, ASYNC }

    private final ManualClock clock = new ManualClock();

    @AfterEach
    void leaveTheTestThreadUninterrupted() {
        Thread.interrupted();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aStepThatCannotFitTheTimeLeftIsPassedOverAndAFasterOneAnswers(Path path) {
        ScriptedCalls sonnet = new ScriptedCalls(clock, answers("sonnet", 8_000));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 1_000));
        FallbackChain<String, String> chain = chain(path, step(sonnet, 8, null), step(haiku, 1, null));

        Ended ended = run(path, chain, Deadline.after(Duration.ofSeconds(5), clock));

        assertThat(ended.result().step()).isEqualTo("haiku");
        assertThat(ended.atMillis()).isEqualTo(1_000L);
        assertThat(sonnet.startMillis()).as("8 s of late do not fit 5 s").isEmpty();
        assertThat(ended.result().passed()).singleElement()
                .satisfies(step -> assertThat(step.kind()).isEqualTo(StepFailure.Kind.DEADLINE));
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aChainWhoseFirstStepHangsAndWhoseSecondIsSlowFailsAtTheDeadlineNeverLater(Path path) {
        ScriptedCalls sonnet = new ScriptedCalls(clock, hangs());
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 4_000));
        FallbackChain<String, String> chain = chain(path, step(sonnet, 0, Duration.ofSeconds(60)), step(haiku, 0, null));

        Ended ended = run(path, chain, Deadline.after(Duration.ofSeconds(10), clock));

        FallbackExhaustedException exhausted = (FallbackExhaustedException) ended.failure();
        assertThat(ended.atMillis()).isEqualTo(10_000L);
        assertThat(exhausted.deadlineReached()).isTrue();
        assertThat(exhausted.steps()).extracting(StepFailure::kind)
                .containsExactly(StepFailure.Kind.FAILED, StepFailure.Kind.DEADLINE);
        assertThat(exhausted.steps().get(0).outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(haiku.startMillis()).as("no time was left for it").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aFirstStepThatTimesOutOnItsOwnLeavesTheSlowSecondTimeToAnswer(Path path) {
        ScriptedCalls sonnet = new ScriptedCalls(clock, hangs());
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 4_000));
        FallbackChain<String, String> chain = chain(path, step(sonnet, 0, Duration.ofSeconds(3)), step(haiku, 0, null));

        Ended ended = run(path, chain, Deadline.after(Duration.ofSeconds(10), clock));

        assertThat(ended.result().value()).isEqualTo("haiku");
        assertThat(ended.atMillis()).isEqualTo(7_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void whenNoStepFitsTheChainEndsAtOnceWithoutACall(Path path) {
        ScriptedCalls sonnet = new ScriptedCalls(clock, answers("sonnet", 0));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 0));
        FallbackChain<String, String> chain = chain(path, step(sonnet, 20, null), step(haiku, 12, null));

        Ended ended = run(path, chain, Deadline.after(Duration.ofSeconds(10), clock));

        FallbackExhaustedException exhausted = (FallbackExhaustedException) ended.failure();
        assertThat(ended.atMillis()).isZero();
        assertThat(exhausted.deadlineReached()).isTrue();
        assertThat(exhausted.getCause()).isInstanceOf(DeadlineExceededException.class)
                .hasMessageContaining("10000 ms were left and it takes 12000 ms");
        assertThat(sonnet.startMillis()).isEmpty();
        assertThat(haiku.startMillis()).isEmpty();
    }

    // ----------------------------------------------------------------

    /** A step: its calls, its guard's recent median in seconds (0: none known), its timeout. */
    private record Step(ScriptedCalls calls, Guard guard) {
    }

    private Step step(ScriptedCalls calls, int medianSeconds, Duration timeout) {
        LatencyEstimate latency = LatencyEstimate.of(clock);
        for (int i = 0; medianSeconds > 0 && i < LatencyEstimate.MIN_SAMPLES; i++) {
            latency.record(Duration.ofSeconds(medianSeconds).toNanos());
        }
        return new Step(calls, Guard.builder("step").timeout(timeout).latencyEstimate(latency).manualClock(clock).build());
    }

    private FallbackChain<String, String> chain(Path path, Step sonnet, Step haiku) {
        FallbackChain.Builder<String, String> chain = FallbackChain.builder();
        if (path == Path.SYNC) {
            chain.step("sonnet", sonnet.guard(), prompt -> sonnet.calls().sync().get())
                    .step("haiku", haiku.guard(), prompt -> haiku.calls().sync().get());
        } else {
            chain.asyncStep("sonnet", sonnet.guard(), prompt -> sonnet.calls().async().get())
                    .asyncStep("haiku", haiku.guard(), prompt -> haiku.calls().async().get());
        }
        return chain.build();
    }

    record Ended(FallbackResult<String> result, Throwable failure, long atMillis) {
    }

    private Ended run(Path path, FallbackChain<String, String> chain, Deadline deadline) {
        if (path == Path.SYNC) {
            try {
                FallbackResult<String> result = chain.execute("hi", deadline);
                return new Ended(result, null, clock.nanoTime() / 1_000_000L);
            } catch (RuntimeException failure) {
                return new Ended(null, failure, clock.nanoTime() / 1_000_000L);
            }
        }
        ScriptedCalls.Outcome<FallbackResult<String>> ended = ScriptedCalls.driveToEnd(clock,
                chain.executeAsync("hi", deadline), 600_000L);
        return new Ended(ended.value(), ended.failure(), ended.atMillis());
    }
}
