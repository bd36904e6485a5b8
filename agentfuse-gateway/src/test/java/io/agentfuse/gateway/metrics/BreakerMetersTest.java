package io.agentfuse.gateway.metrics;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The reasons of the core's transitions become a small set of tag values, without figures. */
class BreakerMetersTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "consecutive5xx: 3 in a row (threshold 3)|consecutive5xx",
            "failureRate: 55% of the last 20 calls failed|failureRate",
            "operator: deploy of v2.3|operator",
            "half-open probe failed: SERVER_ERROR|half-open probe failed",
            "half-open probe slower than PT1M|half-open probe slower than",
            "the server asked for a wait of PT10M, longer than a retry waits|the server asked for a wait of",
            "resetTimeout elapsed|resetTimeout elapsed",
            "reset|reset",
            "'  '|unspecified"})
    void aReasonLosesItsFigures(String reason, String tag) {
        assertThat(BreakerMeters.reasonTag(reason)).isEqualTo(tag);
    }
}
