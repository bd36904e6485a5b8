package io.agentfuse.core.retry;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.MalformedAnswer;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long NOW = ManualClock.DEFAULT_EPOCH_MILLIS;

    @Test
    void defaultsAreTheSeedsFourAttemptsWaitingTwoFourEightSeconds() {
        RetryPolicy policy = RetryPolicy.defaults();

        assertThat(policy.maxAttempts()).isEqualTo(4);
        assertThat(policy.backoffNanos(1, 2 * SECOND, 0.0)).isEqualTo(2 * SECOND);
        assertThat(policy.backoffNanos(2, 2 * SECOND, 0.0)).isEqualTo(4 * SECOND);
        assertThat(policy.backoffNanos(3, 4 * SECOND, 0.0)).isEqualTo(8 * SECOND);
        assertThat(policy.jitter()).isEqualTo(Jitter.NONE);
        assertThat(policy.honorRetryAfter()).isTrue();
        assertThat(policy.deadline()).isNull();
        assertThat(policy.budget()).isNull();
    }

    @Test
    void backoffIsCappedByMaxDelay() {
        RetryPolicy policy = RetryPolicy.builder().maxAttempts(10).maxDelay(Duration.ofSeconds(10)).build();

        assertThat(policy.backoffNanos(3, 4 * SECOND, 0.0)).isEqualTo(8 * SECOND);
        assertThat(policy.backoffNanos(4, 8 * SECOND, 0.0)).isEqualTo(10 * SECOND);
        assertThat(policy.backoffNanos(60, 10 * SECOND, 0.0)).isEqualTo(10 * SECOND);
    }

    @Test
    void retriesEveryRetryableKindByDefault() {
        RetryPolicy policy = RetryPolicy.defaults();

        assertThat(policy.retryOn()).containsExactlyInAnyOrder(Outcome.TIMEOUT, Outcome.SERVER_ERROR,
                Outcome.RATE_LIMITED, Outcome.OVERLOADED, Outcome.CONNECTION_ERROR);
    }

    @Test
    void neverRetriesClientErrorsTokenOveruseOrPlainErrorsByDefault() {
        RetryPolicy policy = RetryPolicy.defaults();

        assertThat(policy.isRetryable(Outcome.CLIENT_ERROR, new HttpStatusException(400))).isFalse();
        assertThat(policy.isRetryable(Outcome.TOKEN_OVERUSE, null)).isFalse();
        assertThat(policy.isRetryable(Outcome.ERROR, new IllegalStateException("bug"))).isFalse();
    }

    @Test
    void retriesAMalformedAnswerWhereverItRetriesServerErrors() {
        RuntimeException truncated = new TruncatedAnswer();

        assertThat(RetryPolicy.defaults().isRetryable(Outcome.ERROR, truncated)).isTrue();
        assertThat(RetryPolicy.defaults().isRetryable(Outcome.ERROR, new CompletionException(truncated))).isTrue();
        assertThat(RetryPolicy.builder().noRetryOn(Outcome.SERVER_ERROR).build().isRetryable(Outcome.ERROR, truncated))
                .isFalse();
        assertThat(RetryPolicy.none().isRetryable(Outcome.ERROR, new IllegalStateException("bug"))).isFalse();
    }

    /** A 200 whose body was cut short. */
    private static final class TruncatedAnswer extends RuntimeException implements MalformedAnswer {
        TruncatedAnswer() {
            super("the answer is cut short");
        }
    }

    @Test
    void serverSayingShouldRetryFalseStopsRetries() {
        HttpStatusException refused = HttpStatusException.builder(503).shouldRetry(false).build();

        assertThat(RetryPolicy.defaults().isRetryable(Outcome.SERVER_ERROR, refused)).isFalse();
        assertThat(RetryPolicy.defaults().isRetryable(Outcome.SERVER_ERROR, new HttpStatusException(503))).isTrue();
    }

    @Test
    void retryOnAddsAKindAndNoRetryOnRemovesOne() {
        RetryPolicy policy = RetryPolicy.builder().retryOn(Outcome.ERROR).noRetryOn(Outcome.TIMEOUT).build();

        assertThat(policy.isRetryable(Outcome.ERROR, new IllegalStateException())).isTrue();
        assertThat(policy.isRetryable(Outcome.TIMEOUT, null)).isFalse();
    }

    @Test
    void retryAfterSecondsReplacesTheBackoff() {
        HttpStatusException limited = HttpStatusException.builder(429).retryAfter("7").build();

        assertThat(RetryPolicy.defaults().delayNanos(1, 2 * SECOND, limited, NOW, 0.0)).isEqualTo(7 * SECOND);
    }

    @Test
    void retryAfterMillisWinsOverRetryAfterSeconds() {
        HttpStatusException limited = HttpStatusException.builder(429).retryAfter("7").retryAfterMs("1500").build();

        assertThat(RetryPolicy.defaults().delayNanos(1, 2 * SECOND, limited, NOW, 0.0)).isEqualTo(1_500_000_000L);
    }

    @Test
    void retryAfterHttpDateWaitsUntilThatInstant() {
        String inTenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME
                .format(Instant.ofEpochMilli(NOW + 10_000).atOffset(ZoneOffset.UTC));
        HttpStatusException limited = HttpStatusException.builder(429).retryAfter(inTenSeconds).build();

        assertThat(RetryPolicy.defaults().delayNanos(1, 2 * SECOND, limited, NOW, 0.0)).isEqualTo(10 * SECOND);
    }

    @Test
    void retryAfterLongerThanMaxDelayIsNotWaitedFor() {
        HttpStatusException limited = HttpStatusException.builder(429).retryAfter("120").build();

        assertThat(RetryPolicy.defaults().delayNanos(1, 2 * SECOND, limited, NOW, 0.0)).isEqualTo(-1);
    }

    @Test
    void retryAfterUpToMaxDelayAndTheDeadlineIsWaitedOut() {
        RetryPolicy policy = RetryPolicy.defaults();

        assertThat(policy.waitsOut(30 * SECOND, 31 * SECOND)).isTrue();
        assertThat(policy.waitsOut(30 * SECOND + 1, Long.MAX_VALUE)).as("past maxDelay").isFalse();
        assertThat(policy.waitsOut(10 * SECOND, 9 * SECOND)).as("past the deadline").isFalse();
    }

    @Test
    void retryAfterIsIgnoredWhenNotHonoured() {
        RetryPolicy policy = RetryPolicy.builder().honorRetryAfter(false).build();
        HttpStatusException limited = HttpStatusException.builder(429).retryAfter("7").retryAfterMs("1500").build();

        assertThat(policy.delayNanos(2, 2 * SECOND, limited, NOW, 0.0)).isEqualTo(4 * SECOND);
    }

    @Test
    void malformedRetryAfterFallsBackToTheBackoff() {
        HttpStatusException limited = HttpStatusException.builder(429).retryAfter("soon").retryAfterMs("-5").build();

        assertThat(RetryPolicy.defaults().delayNanos(1, 2 * SECOND, limited, NOW, 0.0)).isEqualTo(2 * SECOND);
    }

    @Test
    void rejectsInvalidSettingsNamingTheKeyAndValue() {
        assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxAttempts must be >= 1, but was 0");
        assertThatThrownBy(() -> RetryPolicy.builder().multiplier(0.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("multiplier must be >= 1, but was 0.5");
        assertThatThrownBy(() -> RetryPolicy.builder().initialDelay(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("initialDelay must not be negative");
        assertThatThrownBy(() -> RetryPolicy.builder().deadline(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("deadline must be positive");
        assertThatThrownBy(() -> RetryPolicy.builder().retryOn(Outcome.CLIENT_ERROR))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CLIENT_ERROR");
    }

    @Test
    void toBuilderKeepsEverySetting() {
        RetryBudget budget = RetryBudget.of(0.1, 1, Duration.ofSeconds(5), new ManualClock());
        RetryPolicy policy = RetryPolicy.builder().maxAttempts(3).initialDelay(Duration.ofMillis(100))
                .multiplier(3).maxDelay(Duration.ofSeconds(5)).jitter(Jitter.FULL).honorRetryAfter(false)
                .deadline(Duration.ofSeconds(20)).retryOn(Outcome.ERROR).budget(budget).build();

        assertThat(policy.toBuilder().build()).isEqualTo(policy);
    }
}
