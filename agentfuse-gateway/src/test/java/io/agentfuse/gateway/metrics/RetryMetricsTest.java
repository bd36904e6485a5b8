package io.agentfuse.gateway.metrics;

import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.Test;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code agentfuse_retry_attempts_total} and {@code agentfuse_retry_budget_refused_total}, counted from real retries. */
class RetryMetricsTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai" }
            retry:
              maxAttempts: 3
              initialDelay: 1ms
              maxDelay: 5ms
            BUDGET
            breakers:
              default: { consecutive5xx: 100, consecutiveErrors: 100 }
            models:
              gpt-4o-mini: { provider: openai }
            """;

    /** Two calls to a model that always answers 500, through a gateway whose retry budget is {@code budget}. */
    private static String metricsAfterTwoFailingCalls(String budget) {
        try (GatewayHarness harness = GatewayHarness.start(CONFIG.replace("BUDGET", budget))) {
            harness.mock.defaultStep(MockStep.builder().status(500).build());
            harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
            harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
            return harness.metricsText();
        }
    }

    @Test
    void everyRetryIsCountedPerGuard() {
        // the default budget's floor (10 a second over 10 s) allows all four retries
        assertThat(metricsAfterTwoFailingCalls("  budget: { percent: 20%, minPerSecond: 10, ttl: 10s }"))
                .contains("agentfuse_retry_attempts_total{name=\"model:gpt-4o-mini\"} 4.0")
                .contains("agentfuse_retry_budget_refused_total{name=\"model:gpt-4o-mini\"} 0.0");
    }

    @Test
    void retriesTheBudgetRefusesAreCountedPerGuard() {
        assertThat(metricsAfterTwoFailingCalls("  budget: { percent: 0.01%, minPerSecond: 0, ttl: 10s }"))
                .contains("agentfuse_retry_budget_refused_total{name=\"model:gpt-4o-mini\"} 2.0")
                .contains("agentfuse_retry_attempts_total{name=\"model:gpt-4o-mini\"} 0.0");
    }
}
