package io.agentfuse.core.scenario;

import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.scenario.BothPaths.Ended;
import io.agentfuse.core.scenario.BothPaths.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every retry scenario runs twice, through {@link Guard#execute} and {@link Guard#executeAsync}
 * ({@link BothPaths}), and must end the same way at the same times: which failures are retried, on
 * which timeline, and when a server's {@code Retry-After} is waited out or falls over at once.
 */
class SyncAsyncRetryParityTest {

    private final BothPaths paths = new BothPaths();

    @ParameterizedTest
    @EnumSource(Path.class)
    void aSuccessIsReturnedAfterOneAttempt(Path path) {
        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()), attempt -> null);

        assertThat(ended.value()).isEqualTo("answer");
        assertThat(paths.attemptMillis).containsExactly(0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aServerErrorIsRetriedOnTheSeedTimelineUntilItSucceeds(Path path) {
        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()), attempt -> attempt < 3 ? new HttpStatusException(500) : null);

        assertThat(ended.value()).isEqualTo("answer");
        assertThat(paths.attemptMillis).containsExactly(0L, 2_000L, 6_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aClientErrorIsNeverRetried(Path path) {
        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()), attempt -> new HttpStatusException(400));

        assertThat(ended.failure()).isInstanceOf(HttpStatusException.class);
        assertThat(paths.attemptMillis).containsExactly(0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void fourFailuresGiveUpWithTheLastError(Path path) {
        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()), attempt -> HttpStatusException.builder(503).body("#" + attempt).build());

        assertThat(ended.failure()).hasMessageContaining("#4");
        assertThat(paths.attemptMillis).containsExactly(0L, 2_000L, 6_000L, 14_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aShortRetryAfterIsWaitedOut(Path path) {
        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()),
                attempt -> attempt == 1 ? HttpStatusException.builder(429).retryAfter("7").build() : null);

        assertThat(ended.value()).isEqualTo("answer");
        assertThat(paths.attemptMillis).containsExactly(0L, 7_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetryAfterLongerThanMaxDelayFallsOverAtOnceAndHoldsTheBreakerOpen(Path path) {
        Ended ended = paths.run(path, paths.guard(RetryPolicy.defaults()),
                attempt -> HttpStatusException.builder(429).retryAfter("600").build());

        assertThat(ended.failure()).isInstanceOf(HttpStatusException.class);
        assertThat(paths.attemptMillis).containsExactly(0L);
        assertThat(paths.breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(paths.breaker.rejection().retryAfter()).hasValue(Duration.ofSeconds(600));
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetryAfterPastTheDeadlineFallsOverAtOnce(Path path) {
        RetryPolicy withDeadline = RetryPolicy.builder().deadline(Duration.ofSeconds(5)).build();

        Ended ended = paths.run(path, paths.guard(withDeadline), attempt -> HttpStatusException.builder(429).retryAfter("7").build());

        assertThat(ended.failure()).isInstanceOf(HttpStatusException.class);
        assertThat(paths.attemptMillis).containsExactly(0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anOverTheLimitAnswerIsReturnedAndCountedAsTokenOveruseWithoutRetry(Path path) {
        CircuitBreaker tokens = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
                .trigger(Trigger.tokenOveruse(100)).build(), paths.clock);
        Guard guard = Guard.builder("model:sonnet").retry(RetryPolicy.defaults()).circuitBreaker(tokens)
                .tokens(answer -> 500).manualClock(paths.clock).build();

        Ended ended = paths.run(path, guard, attempt -> null);

        assertThat(ended.value()).isEqualTo("answer");
        assertThat(paths.attemptMillis).containsExactly(0L);
        assertThat(tokens.state()).isEqualTo(CircuitState.OPEN);
    }
}
