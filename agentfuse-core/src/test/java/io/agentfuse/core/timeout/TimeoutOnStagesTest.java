package io.agentfuse.core.timeout;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A {@link Timeout} on an asynchronous stage: it fails the stage when the time passes and cancels what it waited for. */
class TimeoutOnStagesTest {

    private final ManualClock clock = new ManualClock();
    private final Timeout timeout = Timeout.of(Duration.ofSeconds(30), clock);

    @Test
    void aStageThatNeverCompletesFailsWhenTheTimeoutPassesAndIsCancelled() {
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletableFuture<String> limited = timeout.within(never);

        clock.advanceMillis(29_999);
        assertThat(limited).isNotDone();
        clock.advanceMillis(1);

        assertThat(limited).isCompletedExceptionally();
        assertThatThrownBy(limited::join).cause().isInstanceOf(CallTimeoutException.class)
                .satisfies(e -> assertThat(((CallTimeoutException) e).timeout()).isEqualTo(Duration.ofSeconds(30)));
        assertThat(never).isCancelled();
    }

    @Test
    void aStageThatCompletesInTimeKeepsItsValueAndStopsTheTimer() {
        CompletableFuture<String> answer = new CompletableFuture<>();
        CompletableFuture<String> limited = timeout.within(answer);

        answer.complete("on time");

        assertThat(limited).isCompletedWithValue("on time");
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void aStageThatFailsInTimeKeepsItsError() {
        HttpStatusException error = new HttpStatusException(502);

        CompletableFuture<String> limited = timeout.within(CompletableFuture.failedFuture(error));

        assertThatThrownBy(limited::join).hasCause(error);
    }

    @Test
    void cancellingTheLimitedStageCancelsTheSourceAndTheTimer() {
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<String> limited = timeout.within(source);

        limited.cancel(true);

        assertThat(source).isCancelled();
        assertThat(clock.pendingTasks()).isZero();
    }
}
