package io.agentfuse.core;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The providers' rate-limit reset headers count as a server's wait on a 429 when Retry-After is absent. */
class RateLimitResetTest {

    private static final long NOW = ManualClock.DEFAULT_EPOCH_MILLIS;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void openAiResetOfTheExhaustedLimitIsTheWait() {
        HttpStatusException limited = HttpStatusException.builder(429)
                .header("x-ratelimit-remaining-requests", "0").header("x-ratelimit-reset-requests", "6m0s")
                .header("x-ratelimit-remaining-tokens", "1200").header("x-ratelimit-reset-tokens", "20ms")
                .build();

        assertThat(RetryAfter.ofError(limited, NOW)).isEqualTo(360 * SECOND);
    }

    @Test
    void withoutRemainingCountsTheLatestResetIsTheWait() {
        HttpStatusException limited = HttpStatusException.builder(429)
                .header("X-RateLimit-Reset-Requests", "1.5s").header("x-ratelimit-reset-tokens", "1h2m3s").build();

        assertThat(RetryAfter.ofError(limited, NOW)).isEqualTo(3723 * SECOND);
    }

    @Test
    void anthropicResetInstantIsTheWait() {
        String inNinetySeconds = Instant.ofEpochMilli(NOW + 90_000).toString();
        HttpStatusException limited = HttpStatusException.builder(429)
                .header("anthropic-ratelimit-tokens-remaining", "0").header("anthropic-ratelimit-tokens-reset", inNinetySeconds)
                .build();

        assertThat(RetryAfter.ofError(limited, NOW)).isEqualTo(90 * SECOND);
    }

    @Test
    void retryAfterWinsOverResetHeaders() {
        HttpStatusException limited = HttpStatusException.builder(429).retryAfter("7")
                .header("x-ratelimit-reset-requests", "6m0s").build();

        assertThat(RetryAfter.ofError(limited, NOW)).isEqualTo(7 * SECOND);
    }

    @Test
    void malformedResetHeadersAreNoHint() {
        HttpStatusException limited = HttpStatusException.builder(429)
                .header("x-ratelimit-reset-requests", "soon").header("anthropic-ratelimit-requests-reset", "tomorrow").build();

        assertThat(RetryAfter.ofError(limited, NOW)).isEqualTo(RetryAfter.NONE);
    }

    @Test
    void resetHeadersOfAnAnswerThatIsNoRateLimitAreNoWait() {
        // OpenAI sends its quota headers on every answer; on a 500 they say when the quota refills, not when to come back.
        HttpStatusException serverError = HttpStatusException.builder(500)
                .header("x-ratelimit-remaining-requests", "0").header("x-ratelimit-reset-requests", "6m0s").build();
        HttpStatusException unavailable = HttpStatusException.builder(503).retryAfter("7")
                .header("x-ratelimit-reset-requests", "6m0s").build();

        assertThat(RetryAfter.ofError(serverError, NOW)).isEqualTo(RetryAfter.NONE);
        assertThat(RetryAfter.ofError(unavailable, NOW)).isEqualTo(7 * SECOND);
    }

    @Test
    void retryHintsKeepWhatTheWaitIsReadFromAndTheShouldRetryVerdict() {
        HttpStatusException limited = HttpStatusException.builder(429).retryHints(List.of(
                Map.entry("X-RateLimit-Remaining-Requests", "0"), Map.entry("X-RateLimit-Reset-Requests", "6m0s"),
                Map.entry("anthropic-ratelimit-tokens-reset", "2026-12-01T10:00:00Z"), Map.entry("Retry-After-Ms", "1500"),
                Map.entry("x-request-id", "req_1"), Map.entry("content-type", "application/json"),
                Map.entry("X-Should-Retry", " false "))).build();

        assertThat(limited.headers()).containsOnlyKeys("x-ratelimit-remaining-requests", "x-ratelimit-reset-requests",
                "anthropic-ratelimit-tokens-reset", "retry-after-ms");
        assertThat(limited.shouldRetry()).hasValue(false);
        assertThat(RetryAfter.ofError(limited, NOW)).isEqualTo(1_500_000_000L);
    }

    @Test
    void aShouldRetryHeaderThatIsNeitherTrueNorFalseIsNoVerdict() {
        HttpStatusException retryable = HttpStatusException.builder(500)
                .retryHints(List.of(Map.entry("x-should-retry", "TRUE"))).build();
        HttpStatusException unclear = HttpStatusException.builder(500)
                .retryHints(List.of(Map.entry("x-should-retry", "maybe"))).build();

        assertThat(retryable.shouldRetry()).hasValue(true);
        assertThat(unclear.shouldRetry()).isEmpty();
    }

    @Test
    void theBuilderKeepsEveryHintAndNamesTheStatus() {
        HttpStatusException failure = HttpStatusException.builder(503).body("overloaded").retryAfterMs("1500")
                .shouldRetry(false).build();

        assertThat(failure.status()).isEqualTo(503);
        assertThat(failure.body()).hasValue("overloaded");
        assertThat(failure.retryAfterMs()).hasValue("1500");
        assertThat(failure.shouldRetry()).hasValue(false);
        assertThat(failure.retryAfter()).isEmpty();
    }
}
