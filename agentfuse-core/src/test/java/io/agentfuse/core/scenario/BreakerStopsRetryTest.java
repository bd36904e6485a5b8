package io.agentfuse.core.scenario;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.event.RetryListener;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.agentfuse.core.scenario.SeedRetryTimelineTest.causeOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** "After the breaker opens, calls return an error at once": a retry in progress stops too. */
class BreakerStopsRetryTest {

    private final ManualClock clock = new ManualClock();
    private final AttemptLog log = new AttemptLog(clock);
    private final List<Integer> scheduledAttempts = new CopyOnWriteArrayList<>();
    private final CircuitBreaker breaker = CircuitBreaker.of("model:gpt-4o-mini",
            CircuitBreakerConfig.builder().trigger(Trigger.consecutive5xx(2)).build(), clock);
    private final Guard guard = Guard.builder("model:gpt-4o-mini")
            .retry(RetryPolicy.defaults())
            .circuitBreaker(breaker)
            .manualClock(clock)
            .retryListener(new RetryListener() {
                @Override
                public void onRetryScheduled(String guard, int nextAttempt, long delayNanos, Throwable cause) {
                    scheduledAttempts.add(nextAttempt);
                }
            })
            .build();

    @Test
    void theAttemptThatTripsTheBreakerIsTheLast() {
        // When attempt 1 fails and attempt 2 fails and trips consecutive5xx(2)
        Throwable thrown = catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(502))));

        // Then there is no third attempt and no third wait: the last error comes back at 2 s
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(log.millis()).containsExactly(0L, 2_000L);
        assertThat(scheduledAttempts).containsExactly(2);
        assertThat(thrown).isSameAs(log.lastThrown());
        assertThat(clock.nanoTime()).isEqualTo(2_000_000_000L);
    }

    @Test
    void anAsynchronousRetryStopsWithoutSchedulingAnotherWait() throws Exception {
        CompletableFuture<String> result = guard.executeAsync(log.failingAsyncWith(attempt -> new HttpStatusException(502)));
        clock.advanceMillis(2_000);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(log.millis()).containsExactly(0L, 2_000L);
        assertThat(clock.pendingTasks()).isZero();
        assertThat(causeOf(result)).isSameAs(log.lastThrown());
    }
}
