package io.agentfuse.config;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.retry.RetryBudget;
import io.agentfuse.core.retry.RetryPolicy;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults are written once: a config file that leaves a key out gets exactly what a library
 * user gets from core's builders with no options.
 */
class DefaultsMatchCoreTest {

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "test.yaml", Map.of());
    }

    @Test
    void theDefaultBreakerOfAnEmptyFileIsCoresDefaultBreaker() {
        AgentfuseConfig config = parse("{}\n");

        assertThat(config.breakers().get(ConfigDefaults.DEFAULT_BREAKER_NAME).toCircuitBreakerConfig())
                .isEqualTo(CircuitBreakerConfig.defaults());
        assertThat(ConfigDefaults.MODEL_BREAKER.toCircuitBreakerConfig()).isEqualTo(CircuitBreakerConfig.defaults());
    }

    @Test
    void aBreakerWrittenWithEveryDesignDefaultIsCoresDefaultBreaker() {
        AgentfuseConfig config = parse("""
                breakers:
                  default:
                    consecutiveTimeouts: { count: 3, slowerThan: 60s }
                    consecutiveErrors: 5
                    consecutive5xx: 3
                    consecutive429: 2
                    tokenOveruse: { maxTokensPerCall: 50000 }
                    failureRate: { window: 20, minCalls: 10, threshold: 50% }
                    resetTimeout: 5m
                    halfOpenRequests: 1
                """);

        assertThat(config.breakers().get("default").toCircuitBreakerConfig()).isEqualTo(CircuitBreakerConfig.defaults());
    }

    @Test
    void theRetryOfAnEmptyFileIsCoresDefaultRetryWithTheFleetBudget() {
        RetryConfig retry = parse("{}\n").retry();
        RetryPolicy core = RetryPolicy.defaults();

        RetryBudget budget = retry.budget().toRetryBudget(new ManualClock());

        RetryPolicy fromYaml = retry.toRetryPolicy(budget);

        assertThat(fromYaml).isEqualTo(core.toBuilder().budget(budget).build());
        assertThat(retry.budget()).isEqualTo(ConfigDefaults.RETRY.budget());
    }
}
