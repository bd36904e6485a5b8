package io.agentfuse.core.scenario;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.retry.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The seed's retry rule, to the millisecond: "5xx retryable, 4xx not; wait 2 s, 4 s, 8 s; the
 * fourth attempt gives up and returns the error".
 */
class SeedRetryTimelineTest {

    private final ManualClock clock = new ManualClock();
    private final AttemptLog log = new AttemptLog(clock);
    private final Guard guard = Guard.builder("model:claude-sonnet-4")
            .retry(RetryPolicy.defaults())
            .manualClock(clock)
            .build();

    @Test
    void aServerErrorIsTriedFourTimesAtZeroTwoSixAndFourteenSeconds() {
        // Given a call that answers HTTP 500 every time
        // When it runs under the default policy
        Throwable thrown = catchThrowable(() -> guard.execute(log.failingWith(SeedRetryTimelineTest::serverError)));

        // Then it is tried at 0, 2, 6 and 14 s, and the last error is returned
        assertThat(log.millis()).containsExactly(0L, 2_000L, 6_000L, 14_000L);
        assertThat(thrown).isSameAs(log.lastThrown()).hasMessageContaining("attempt 4");
        assertThat(clock.nanoTime()).as("no wait after the last attempt").isEqualTo(Duration.ofSeconds(14).toNanos());
    }

    @Test
    void theAsynchronousTimelineIsTheSameAndNothingRunsEarly() throws Exception {
        CompletableFuture<String> result = guard.executeAsync(log.failingAsyncWith(SeedRetryTimelineTest::serverError));
        assertThat(log.millis()).containsExactly(0L);

        clock.advanceMillis(1_999);
        assertThat(log.count()).isEqualTo(1);
        clock.advanceMillis(1);
        assertThat(log.millis()).containsExactly(0L, 2_000L);

        clock.advanceMillis(3_999);
        assertThat(log.count()).isEqualTo(2);
        clock.advanceMillis(1);
        assertThat(log.millis()).containsExactly(0L, 2_000L, 6_000L);

        clock.advanceMillis(7_999);
        assertThat(log.count()).isEqualTo(3);
        assertThat(result).isNotDone();
        clock.advanceMillis(1);

        assertThat(log.millis()).containsExactly(0L, 2_000L, 6_000L, 14_000L);
        assertThat(result).isCompletedExceptionally();
        assertThat(causeOf(result)).isSameAs(log.lastThrown());
        assertThat(clock.pendingTasks()).as("no fifth attempt is scheduled").isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 422})
    void aClientErrorIsNeverRetried(int status) {
        Throwable thrown = catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(status))));

        assertThat(log.millis()).containsExactly(0L);
        assertThat(thrown).isSameAs(log.lastThrown());
        assertThat(clock.nanoTime()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 422})
    void anAsynchronousClientErrorIsNeverRetried(int status) throws Exception {
        CompletableFuture<String> result = guard.executeAsync(log.failingAsyncWith(attempt -> new HttpStatusException(status)));

        clock.advance(Duration.ofMinutes(1));

        assertThat(log.millis()).containsExactly(0L);
        assertThat(causeOf(result)).isSameAs(log.lastThrown());
    }

    @Test
    void aDeadlineOfFiveSecondsStopsBeforeAWaitThatWouldEndPastIt() {
        // Given waits of 2 s, 4 s, 8 s and a 5 s deadline
        Guard withDeadline = Guard.builder("model")
                .retry(RetryPolicy.builder().deadline(Duration.ofSeconds(5)).build())
                .manualClock(clock)
                .build();

        // When every attempt fails
        Throwable thrown = catchThrowable(() -> withDeadline.execute(log.failingWith(SeedRetryTimelineTest::serverError)));

        // Then the second wait (2 s + 4 s = 6 s > 5 s) is not started: it gives up at 2 s
        assertThat(log.millis()).containsExactly(0L, 2_000L);
        assertThat(thrown).isSameAs(log.lastThrown());
        assertThat(clock.nanoTime()).isEqualTo(Duration.ofSeconds(2).toNanos());
    }

    @Test
    void anAsynchronousDeadlineGivesUpWithoutSchedulingAWaitPastIt() throws Exception {
        Guard withDeadline = Guard.builder("model")
                .retry(RetryPolicy.builder().deadline(Duration.ofSeconds(5)).build())
                .manualClock(clock)
                .build();

        CompletableFuture<String> result = withDeadline.executeAsync(log.failingAsyncWith(SeedRetryTimelineTest::serverError));
        clock.advanceMillis(2_000);

        assertThat(log.millis()).containsExactly(0L, 2_000L);
        assertThat(result).isCompletedExceptionally();
        assertThat(causeOf(result)).isSameAs(log.lastThrown());
        assertThat(clock.pendingTasks()).isZero();
    }

    private static HttpStatusException serverError(int attempt) {
        return HttpStatusException.builder(500).body("attempt " + attempt).build();
    }

    static Throwable causeOf(CompletableFuture<?> future) throws InterruptedException {
        try {
            future.get();
            throw new AssertionError("expected a failure but got " + future.join());
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
