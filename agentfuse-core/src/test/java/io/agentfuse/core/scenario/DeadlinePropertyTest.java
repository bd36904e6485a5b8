package io.agentfuse.core.scenario;

import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.retry.RetryPolicy;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterTry;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever the attempts do, a call under a deadline ends no later than the deadline, and starts
 * no attempt at or after it: a started attempt's timeout is cut to the time left, and a retry that
 * cannot fit is not started. Both paths, on a {@link ManualClock}.
 */
class DeadlinePropertyTest {

    @AfterTry
    void leaveTheThreadUninterrupted() {
        Thread.interrupted();
    }

    @Property(tries = 150)
    void anAsynchronousCallNeverEndsAfterItsDeadline(@ForAll @IntRange(min = 1, max = 30) int deadlineSeconds,
                                                     @ForAll @IntRange(min = 0, max = 60) int timeoutSeconds,
                                                     @ForAll @Size(min = 1, max = 5) List<@IntRange(min = -1, max = 400) Integer> tenths) {
        ManualClock clock = new ManualClock();
        ScriptedCalls calls = new ScriptedCalls(clock, script(tenths));
        CompletableFuture<String> future = guard(clock, timeoutSeconds)
                .executeAsync(Deadline.after(Duration.ofSeconds(deadlineSeconds), clock), calls.async());

        long endedAt = ScriptedCalls.driveToEnd(clock, future, 100_000L).atMillis();

        assertThat(endedAt).isLessThanOrEqualTo(deadlineSeconds * 1_000L);
        assertThat(calls.startMillis()).allSatisfy(start -> assertThat(start).isLessThan(deadlineSeconds * 1_000L));
    }

    @Property(tries = 150)
    void aSynchronousCallNeverEndsAfterItsDeadline(@ForAll @IntRange(min = 1, max = 30) int deadlineSeconds,
                                                   @ForAll @IntRange(min = 0, max = 60) int timeoutSeconds,
                                                   @ForAll @Size(min = 1, max = 5) List<@IntRange(min = -1, max = 400) Integer> tenths) {
        ManualClock clock = new ManualClock();
        ScriptedCalls calls = new ScriptedCalls(clock, script(tenths));
        try {
            guard(clock, timeoutSeconds).execute(Deadline.after(Duration.ofSeconds(deadlineSeconds), clock), calls.sync());
        } catch (RuntimeException expected) {
            // how it ended does not matter here; when it did does
        }

        assertThat(calls.nowMillis()).isLessThanOrEqualTo(deadlineSeconds * 1_000L);
        assertThat(calls.startMillis()).allSatisfy(start -> assertThat(start).isLessThan(deadlineSeconds * 1_000L));
    }

    /** Each entry an attempt: -1 hangs, an even number of tenths fails with a 503 after it, an odd one answers. */
    private static ScriptedCalls.Step[] script(List<Integer> tenths) {
        return tenths.stream().map(t -> t < 0 ? ScriptedCalls.hangs()
                : t % 2 == 0 ? ScriptedCalls.fails(new HttpStatusException(503), t * 100L)
                : ScriptedCalls.answers("answer", t * 100L)).toArray(ScriptedCalls.Step[]::new);
    }

    private static Guard guard(ManualClock clock, int timeoutSeconds) {
        LatencyEstimate latency = LatencyEstimate.of(clock);
        return Guard.builder("model").retry(RetryPolicy.builder().maxAttempts(5).initialDelay(Duration.ofMillis(500)).build())
                .timeout(timeoutSeconds == 0 ? null : Duration.ofSeconds(timeoutSeconds))
                .latencyEstimate(latency).manualClock(clock).build();
    }
}
