package io.agentfuse.core.scenario;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.retry.RetryPolicy;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;

import static io.agentfuse.core.scenario.SeedRetryTimelineTest.causeOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** How long a guard waits when the server says how long to wait: Retry-After, retry-after-ms, x-should-retry. */
class ServerRetryHintTimelineTest {

    private final ManualClock clock = new ManualClock();
    private final AttemptLog log = new AttemptLog(clock);

    @Test
    void retryAfterSevenSecondsMovesTheNextAttemptToSevenSeconds() {
        run(RetryPolicy.defaults(), HttpStatusException.builder(429).retryAfter("7").build());

        assertThat(log.millis()).containsExactly(0L, 7_000L);
    }

    @Test
    void retryAfterMillisecondsIsHonouredToTheMillisecond() {
        run(RetryPolicy.defaults(), HttpStatusException.builder(429).retryAfterMs("1500").build());

        assertThat(log.millis()).containsExactly(0L, 1_500L);
    }

    @Test
    void retryAfterAsAnHttpDateWaitsUntilThatDate() {
        String tenSecondsAfterStart = DateTimeFormatter.RFC_1123_DATE_TIME
                .format(Instant.ofEpochMilli(clock.epochMillis() + 10_000).atOffset(ZoneOffset.UTC));

        run(RetryPolicy.defaults(), HttpStatusException.builder(503).retryAfter(tenSecondsAfterStart).build());

        assertThat(log.millis()).containsExactly(0L, 10_000L);
    }

    @Test
    void retryAfterLongerThanMaxDelayIsNotWaitedFor() {
        run(RetryPolicy.defaults(), HttpStatusException.builder(429).retryAfter("120").build());

        assertThat(log.millis()).as("falls over at once instead of waiting 120 s").containsExactly(0L);
    }

    @Test
    void retryAfterIsIgnoredWhenThePolicyDoesNotHonourIt() {
        run(RetryPolicy.builder().honorRetryAfter(false).build(), HttpStatusException.builder(429).retryAfter("7").build());

        assertThat(log.millis()).containsExactly(0L, 2_000L);
    }

    @Test
    void xShouldRetryFalseStopsRetryingAServerError() {
        HttpStatusException refused = HttpStatusException.builder(503).body("maintenance").shouldRetry(false).build();

        Throwable thrown = run(RetryPolicy.defaults(), refused);

        assertThat(log.millis()).containsExactly(0L);
        assertThat(thrown).isSameAs(refused);
    }

    @Test
    void anAsynchronousRetryHonoursRetryAfterToo() throws Exception {
        Guard guard = Guard.builder("model").retry(RetryPolicy.builder().maxAttempts(2).build()).manualClock(clock).build();

        CompletableFuture<String> result = guard.executeAsync(
                log.failingAsyncWith(attempt -> HttpStatusException.builder(429).retryAfter("7").build()));
        clock.advanceMillis(6_999);
        assertThat(log.count()).isEqualTo(1);
        clock.advanceMillis(1);

        assertThat(log.millis()).containsExactly(0L, 7_000L);
        assertThat(causeOf(result)).isSameAs(log.lastThrown());
    }

    /** Two attempts at most, each failing with {@code error}; returns what the guard threw. */
    private Throwable run(RetryPolicy policy, HttpStatusException error) {
        Guard guard = Guard.builder("model").retry(policy.toBuilder().maxAttempts(2).build()).manualClock(clock).build();
        return catchThrowable(() -> guard.execute(log.failingWith(attempt -> error)));
    }
}
