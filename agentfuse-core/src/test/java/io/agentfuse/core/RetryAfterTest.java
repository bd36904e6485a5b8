package io.agentfuse.core;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class RetryAfterTest {

    /** 2026-01-01T00:00:00Z, a Thursday. */
    private static final long NOW = ManualClock.DEFAULT_EPOCH_MILLIS;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void readsDeltaSeconds() {
        assertThat(RetryAfter.nanos(null, "120", NOW)).isEqualTo(120 * SECOND);
        assertThat(RetryAfter.nanos(null, " 7 ", NOW)).isEqualTo(7 * SECOND);
        assertThat(RetryAfter.nanos(null, "0", NOW)).isZero();
    }

    @Test
    void readsDecimalSeconds() {
        assertThat(RetryAfter.nanos(null, "1.5", NOW)).isEqualTo(1_500_000_000L);
    }

    @Test
    void readsAnHttpDateInTheFutureAsTheTimeUntilThen() {
        assertThat(RetryAfter.nanos(null, "Thu, 01 Jan 2026 00:02:00 GMT", NOW)).isEqualTo(120 * SECOND);
    }

    @Test
    void readsAnHttpDateInThePastAsZero() {
        assertThat(RetryAfter.nanos(null, "Wed, 31 Dec 2025 23:59:00 GMT", NOW)).isZero();
    }

    @Test
    void readsAnHttpDateCenturiesAheadAsTheLongestWaitNeverAsAShortOrNegativeOne() {
        long longest = Long.MAX_VALUE / 2;

        assertThat(RetryAfter.nanos(null, "Thu, 27 Jun 2611 00:00:00 GMT", NOW)).isEqualTo(longest);
        assertThat(RetryAfter.nanos(null, "Fri, 31 Dec 9999 23:59:59 GMT", NOW)).isEqualTo(longest);
        assertThat(RetryAfter.nanos("99999999999999999999", null, NOW)).isEqualTo(longest);
    }

    @Test
    void retryAfterMsWinsOverRetryAfter() {
        assertThat(RetryAfter.nanos("250", "120", NOW)).isEqualTo(250_000_000L);
        assertThat(RetryAfter.nanos("1500.5", null, NOW)).isEqualTo(1_500_500_000L);
    }

    @Test
    void malformedRetryAfterMsFallsBackToRetryAfter() {
        assertThat(RetryAfter.nanos("soon", "3", NOW)).isEqualTo(3 * SECOND);
    }

    @Test
    void malformedOrMissingValuesGiveNone() {
        assertThat(RetryAfter.nanos(null, "soon", NOW)).isEqualTo(RetryAfter.NONE);
        assertThat(RetryAfter.nanos(null, "-5", NOW)).isEqualTo(RetryAfter.NONE);
        assertThat(RetryAfter.nanos(null, "NaN", NOW)).isEqualTo(RetryAfter.NONE);
        assertThat(RetryAfter.nanos(null, "Thursday noon", NOW)).isEqualTo(RetryAfter.NONE);
        assertThat(RetryAfter.nanos("-1", "", NOW)).isEqualTo(RetryAfter.NONE);
        assertThat(RetryAfter.nanos(null, null, NOW)).isEqualTo(RetryAfter.NONE);
    }

    @Test
    void numbersAreDigitsWithPerhapsAFractionNotWhateverJavaWouldParse() {
        for (String lenient : new String[] {"0x1p3", "8f", "8d", "1e3", "+5", "Infinity", ".5", "1_000"}) {
            assertThat(RetryAfter.nanos(null, lenient, NOW)).as(lenient).isEqualTo(RetryAfter.NONE);
            assertThat(RetryAfter.nanos(lenient, null, NOW)).as(lenient).isEqualTo(RetryAfter.NONE);
        }
    }

    @Test
    void readsTheHintsOfAnHttpStatusException() {
        assertThat(RetryAfter.ofError(HttpStatusException.builder(429).body("slow down").retryAfter("120").build(), NOW))
                .isEqualTo(120 * SECOND);
        assertThat(RetryAfter.ofError(HttpStatusException.builder(429).retryAfter("120").retryAfterMs("800").build(), NOW))
                .isEqualTo(800_000_000L);
    }

    @Test
    void readsTheHintsOfAWrappedHttpStatusException() {
        Throwable wrapped = new CompletionException(HttpStatusException.builder(529).retryAfter("30").build());

        assertThat(RetryAfter.ofError(wrapped, NOW)).isEqualTo(30 * SECOND);
    }

    @Test
    void otherErrorsCarryNoHint() {
        assertThat(RetryAfter.ofError(new IllegalStateException(), NOW)).isEqualTo(RetryAfter.NONE);
        assertThat(RetryAfter.ofError(new HttpStatusException(429), NOW)).isEqualTo(RetryAfter.NONE);
    }
}
