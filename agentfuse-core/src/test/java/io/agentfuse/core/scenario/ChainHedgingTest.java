package io.agentfuse.core.scenario;

import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RecordingListener;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.core.hedge.HedgeBudget;
import io.agentfuse.core.hedge.HedgePolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.agentfuse.core.scenario.ScriptedCalls.answers;
import static io.agentfuse.core.scenario.ScriptedCalls.fails;
import static io.agentfuse.core.scenario.ScriptedCalls.hangs;
import static io.agentfuse.core.scenario.ScriptedCalls.streams;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hedged fallback chain (docs/design.md §13): when a step has produced no result by the hedge
 * delay, the next step is started too; the first result wins, the other is cancelled and recorded
 * by its breaker as neither a success nor a failure. On a {@link ManualClock}.
 */
class ChainHedgingTest {

    private static final HedgePolicy AFTER_2S = HedgePolicy.builder().after(Duration.ofSeconds(2)).build();

    private final ManualClock clock = new ManualClock();
    private final HedgeEvents events = new HedgeEvents();
    private final Map<String, CircuitBreaker> breakers = new LinkedHashMap<>();
    private final Map<String, RecordingListener> recorded = new LinkedHashMap<>();

    @Test
    void theNextStepStartsBesideASlowOneAndTheFirstResultWins() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, answers("sonnet", 10_000));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 1_000));

        Ended ended = run(chain(AFTER_2S, Map.of("sonnet", sonnet, "haiku", haiku)));

        assertThat(ended.result().step()).isEqualTo("haiku");
        assertThat(ended.result().hedged()).isTrue();
        assertThat(ended.result().passed()).isEmpty();
        assertThat(ended.atMillis()).isEqualTo(3_000L);
        assertThat(haiku.startMillis()).containsExactly(2_000L);
        assertThat(recorded.get("sonnet").recorded()).as("the loser is neither a success nor a failure").isEmpty();
        assertThat(recorded.get("haiku").recorded()).containsExactly(Outcome.SUCCESS);
        assertThat(events.events()).containsExactly("started sonnet>haiku", "won sonnet>haiku");
        clock.advance(Duration.ofSeconds(20));
        assertThat(recorded.get("sonnet").recorded()).as("not even when its answer would have come").isEmpty();
    }

    @Test
    void aStepThatAnswersBeforeTheDelayIsNotHedged() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, answers("sonnet", 1_500));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 1_000));

        Ended ended = run(chain(AFTER_2S, Map.of("sonnet", sonnet, "haiku", haiku)));

        assertThat(ended.result().step()).isEqualTo("sonnet");
        assertThat(ended.result().hedged()).isFalse();
        assertThat(haiku.startMillis()).isEmpty();
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void aHedgeSkippedByAnOpenBreakerMakesWayForTheStepAfterIt() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, hangs());
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 100));
        ScriptedCalls mini = new ScriptedCalls(clock, answers("mini", 1_000));
        FallbackChain<String, String> chain = chain(AFTER_2S, Map.of("sonnet", sonnet, "haiku", haiku, "mini", mini));
        breakers.get("haiku").forceOpen("maintenance");

        Ended ended = run(chain);

        assertThat(ended.result().step()).isEqualTo("mini");
        assertThat(ended.result().hedged()).isTrue();
        assertThat(ended.atMillis()).isEqualTo(3_000L);
        assertThat(ended.result().passed()).extracting(StepFailure::kind).containsExactly(StepFailure.Kind.CIRCUIT_OPEN);
    }

    @Test
    void theSlowStepsFailureWaitsForTheHedge() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, fails(new HttpStatusException(503), 2_500));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 2_000));

        Ended ended = run(chain(AFTER_2S, Map.of("sonnet", sonnet, "haiku", haiku)));

        assertThat(ended.result().step()).isEqualTo("haiku");
        assertThat(ended.atMillis()).isEqualTo(4_000L);
        assertThat(ended.result().passed()).extracting(StepFailure::step).containsExactly("sonnet");
        assertThat(recorded.get("sonnet").recorded()).containsExactly(Outcome.SERVER_ERROR);
    }

    @Test
    void whenTheHedgeFailsFirstTheFailuresAreListedInChainOrderAndTheChainGoesOn() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, fails(new HttpStatusException(503), 5_000));
        ScriptedCalls haiku = new ScriptedCalls(clock, fails(new HttpStatusException(529), 1_000));
        ScriptedCalls mini = new ScriptedCalls(clock, answers("mini", 500));

        Ended ended = run(chain(AFTER_2S, Map.of("sonnet", sonnet, "haiku", haiku, "mini", mini)));

        assertThat(mini.startMillis()).as("one hedge per request: mini waits for sonnet's failure").containsExactly(5_000L);
        assertThat(ended.result().step()).isEqualTo("mini");
        assertThat(ended.result().hedged()).isFalse();
        assertThat(ended.result().passed()).extracting(StepFailure::step).containsExactly("sonnet", "haiku");
    }

    @Test
    void theSlowStepsFirstContentWinsAndCancelsTheHedge() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, streams("sonnet", 3_000, 8_000));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 4_000));

        Ended ended = run(chain(AFTER_2S, Map.of("sonnet", sonnet, "haiku", haiku)));

        assertThat(ended.result().step()).isEqualTo("sonnet");
        assertThat(ended.result().hedged()).isFalse();
        assertThat(ended.atMillis()).isEqualTo(8_000L);
        assertThat(recorded.get("haiku").recorded()).as("cancelled at 3 s, before its answer at 6 s").isEmpty();
        assertThat(events.events()).containsExactly("started sonnet>haiku");
    }

    @Test
    void theChainHedgesOnlyWithinItsBudget() {
        HedgePolicy budgeted = HedgePolicy.builder().after(Duration.ofSeconds(2)).budget(HedgeBudget.of(0.10, clock)).build();
        ScriptedCalls sonnet = new ScriptedCalls(clock, answers("sonnet", 3_000));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 100));

        Ended ended = run(chain(budgeted, Map.of("sonnet", sonnet, "haiku", haiku)));

        assertThat(ended.result().step()).isEqualTo("sonnet");
        assertThat(haiku.startMillis()).isEmpty();
        assertThat(events.events()).containsExactly("refused sonnet BUDGET");
    }

    @Test
    void anAdaptiveDelayIsTheSlowStepsOwnRecentP95() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, answers("sonnet", 5_000));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 100));
        FallbackChain<String, String> chain = chain(HedgePolicy.builder().afterP95().build(),
                Map.of("sonnet", sonnet, "haiku", haiku));
        LatencyEstimate sonnetLatency = guards.get("sonnet").latencyEstimate();
        for (int i = 0; i < LatencyEstimate.MIN_SAMPLES; i++) {
            sonnetLatency.record(Duration.ofMillis(1_200).toNanos());
        }

        Ended ended = run(chain);

        assertThat(haiku.startMillis()).containsExactly(1_200L);
        assertThat(ended.result().step()).isEqualTo("haiku");
    }

    @Test
    void aHedgeIsNotStartedWhenTheNextStepCannotFitTheDeadline() {
        ScriptedCalls sonnet = new ScriptedCalls(clock, answers("sonnet", 4_000));
        ScriptedCalls haiku = new ScriptedCalls(clock, answers("haiku", 100));
        FallbackChain<String, String> chain = chain(AFTER_2S, Map.of("sonnet", sonnet, "haiku", haiku));
        for (int i = 0; i < LatencyEstimate.MIN_SAMPLES; i++) {
            guards.get("haiku").latencyEstimate().record(Duration.ofSeconds(4).toNanos());
        }

        Ended ended = run(chain, Deadline.after(Duration.ofSeconds(5), clock));

        assertThat(ended.result().step()).isEqualTo("sonnet");
        assertThat(haiku.startMillis()).isEmpty();
        assertThat(ended.result().passed()).extracting(StepFailure::kind).containsExactly(StepFailure.Kind.DEADLINE);
        assertThat(events.events()).containsExactly("refused sonnet NO_STEP");
    }

    // ----------------------------------------------------------------

    private final Map<String, Guard> guards = new LinkedHashMap<>();

    /** A chain of the steps in order (sonnet, haiku, mini), each behind its own breaker. */
    private FallbackChain<String, String> chain(HedgePolicy hedge, Map<String, ScriptedCalls> calls) {
        FallbackChain.Builder<String, String> chain = FallbackChain.<String, String>builder()
                .hedge(hedge).hedgeListener(events);
        for (String name : new String[] {"sonnet", "haiku", "mini"}) {
            ScriptedCalls step = calls.get(name);
            if (step == null) {
                continue;
            }
            CircuitBreaker breaker = CircuitBreaker.of("model:" + name, CircuitBreakerConfig.defaults(), clock);
            RecordingListener listener = new RecordingListener();
            breaker.addListener(listener);
            breakers.put(name, breaker);
            recorded.put(name, listener);
            Guard guard = Guard.builder("model:" + name).circuitBreaker(breaker)
                    .latencyEstimate(LatencyEstimate.of(clock)).manualClock(clock).build();
            guards.put(name, guard);
            chain.asyncStep(name, guard, prompt -> null, (prompt, attempt) -> step.asyncWithContext().apply(attempt));
        }
        return chain.build();
    }

    record Ended(FallbackResult<String> result, Throwable failure, long atMillis) {
    }

    private Ended run(FallbackChain<String, String> chain) {
        return run(chain, Deadline.none());
    }

    private Ended run(FallbackChain<String, String> chain, Deadline deadline) {
        ScriptedCalls.Outcome<FallbackResult<String>> ended = ScriptedCalls.driveToEnd(clock,
                chain.executeAsync("hi", deadline), 600_000L);
        return new Ended(ended.value(), ended.failure(), ended.atMillis());
    }
}
