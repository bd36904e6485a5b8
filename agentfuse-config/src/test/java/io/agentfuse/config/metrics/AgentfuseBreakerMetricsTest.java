package io.agentfuse.config.metrics;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The breaker meters against a real registry and Micrometer's simple registry. */
class AgentfuseBreakerMetricsTest {

    @Test
    void bindingTwiceToOneRegistryCountsOnce() {
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.builder().clock(new ManualClock()).build();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        AgentfuseBreakerMetrics metrics = new AgentfuseBreakerMetrics(breakers);
        metrics.bindTo(meters);
        metrics.bindTo(meters);

        CircuitBreaker breaker = breakers.breaker("tool:search/web");
        breaker.onOutcome(breaker.acquirePermission(), Outcome.SUCCESS, 0L, RetryAfter.NONE);

        assertThat(meters.get("agentfuse.breaker.calls").tags("name", "tool:search/web", "outcome", "SUCCESS")
                .counter().count()).isEqualTo(1.0);
        assertThat(meters.get("agentfuse.breaker.state").tags("name", "tool:search/web", "state", "CLOSED")
                .gauge().value()).isEqualTo(1.0);
    }

    @Test
    void aBoundBreakerShowsEveryCounterAtZeroBeforeItsFirstCall() {
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.builder().clock(new ManualClock()).build();
        breakers.breaker("model:claude-sonnet-4");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        new AgentfuseBreakerMetrics(breakers).bindTo(meters);

        for (Outcome outcome : Outcome.values()) {
            assertThat(meters.get("agentfuse.breaker.calls").tags("name", "model:claude-sonnet-4", "outcome", outcome.name())
                    .counter().count()).isZero();
        }
        assertThat(meters.get("agentfuse.breaker.not.permitted.calls").tags("name", "model:claude-sonnet-4")
                .counter().count()).isZero();
    }

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
            "'  '|unknown"})
    void theReasonTagIsTheTriggerOrEventWithoutItsFigures(String reason, String tag) {
        assertThat(AgentfuseBreakerMetrics.reasonTag(reason)).isEqualTo(tag);
    }

    @Test
    void aMissingReasonIsUnknown() {
        assertThat(AgentfuseBreakerMetrics.reasonTag(null)).isEqualTo("unknown");
    }
}
