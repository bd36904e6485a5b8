package io.agentfuse.springai.metrics;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

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
    void theReasonTagIsTheTriggerWithoutItsCounts() {
        assertThat(AgentfuseBreakerMetrics.reasonTag("consecutive5xx: 3 in a row (threshold 3)")).isEqualTo("consecutive5xx");
        assertThat(AgentfuseBreakerMetrics.reasonTag("operator: maintenance")).isEqualTo("operator");
        assertThat(AgentfuseBreakerMetrics.reasonTag("resetTimeout elapsed")).isEqualTo("resetTimeout elapsed");
        assertThat(AgentfuseBreakerMetrics.reasonTag("the server asked for a wait of PT2M, longer than a retry waits"))
                .isEqualTo("other");
        assertThat(AgentfuseBreakerMetrics.reasonTag(null)).isEqualTo("unknown");
    }
}
