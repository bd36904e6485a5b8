package io.agentfuse.gateway.scenario;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Every row of the gateway's error table, answered in the caller's dialect. */
class ErrorTableScenarioTest {

    /** Breakers stay open for a minute, so an open chain is still open when the test looks. */
    private static final String LONG_OPEN = GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 1m");

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void everyStepSkippedByAnOpenBreakerIs503CircuitOpenWithRetryAfter() {
        harness = GatewayHarness.start(LONG_OPEN);
        harness.mock.defaultStep(MockStep.builder().status(500).build());
        for (int i = 0; i < 3; i++) {
            harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));
        }
        int calledSoFar = harness.mock.requests().size();

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        assertThat(harness.breaker("claude-sonnet-4").state()).isEqualTo(CircuitState.OPEN);
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("circuit_open");
        assertThat(Long.parseLong(reply.header("retry-after"))).isBetween(1L, 60L);
        assertThat(reply.header("x-agentfuse-fallbacks"))
                .isEqualTo("claude-sonnet-4=circuit_open; claude-haiku-4=circuit_open; gpt-4o-mini=circuit_open");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("0");
        assertThat(harness.mock.requests()).hasSize(calledSoFar);
    }

    @Test
    void circuitOpenIsAnsweredInTheAnthropicShapeToAnthropicCallers() {
        harness = GatewayHarness.start(LONG_OPEN);
        harness.gateway.runtime().registry().all().forEach(breaker -> breaker.forceOpen("maintenance"));

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().getString("type")).isEqualTo("error");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("circuit_open");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("maintenance");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aChainHeldOpenByAnOperatorSaysComeBackAfterTheResetTimeoutAndNotToRetry() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 10s"));
        harness.gateway.runtime().registry().all().forEach(breaker -> breaker.forceOpen("maintenance"));

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("circuit_open");
        assertThat(reply.header("retry-after")).isEqualTo("10");
        assertThat(reply.header("x-should-retry")).as("nothing reopens it: a retry is no probe").isEqualTo("false");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void everyCalledStepTimingOutIs504Timeout() {
        harness = GatewayHarness.start(GatewayHarness.configWithPrimary("timeout: 200ms")
                .replace("{ provider: anthropic, upstreamModel: claude-haiku-4-5 }",
                        "{ provider: anthropic, upstreamModel: claude-haiku-4-5, timeout: 200ms }")
                .replace("{ provider: openai, fallbacks: [claude-haiku-4] }",
                        "{ provider: openai, fallbacks: [claude-haiku-4], timeout: 200ms }"));
        harness.mock.defaultStep(MockStep.builder().delayMs(5_000).build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("timeout");
        assertThat(reply.header("x-agentfuse-fallbacks"))
                .isEqualTo("claude-sonnet-4=TIMEOUT; claude-haiku-4=TIMEOUT; gpt-4o-mini=TIMEOUT");
    }

    @Test
    void aChainThatFailsOtherwiseIs502ListingEveryStep() {
        harness = GatewayHarness.start();
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(529).build());
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(502).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("message")).contains("claude-sonnet-4", "claude-haiku-4", "gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo(
                "claude-sonnet-4=SERVER_ERROR(HTTP 500); claude-haiku-4=OVERLOADED(HTTP 529); gpt-4o-mini=SERVER_ERROR(HTTP 502)");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("3");
    }

    @Test
    void aOneModelChainThatFailsIs502Too() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().status(500).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void badJsonIs400InvalidRequest() {
        harness = GatewayHarness.start();

        Reply reply = harness.client.send(HttpMethod.POST, "/v1/chat/completions", Buffer.buffer("{\"model\": "), Map.of());

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aMissingFieldIs400InvalidRequestNamingIt() {
        harness = GatewayHarness.start();

        Reply reply = harness.client.post("/v1/messages", new JsonObject().put("model", "claude-sonnet-4").put("max_tokens", 10));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getString("type")).isEqualTo("error");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("messages");
    }

    @Test
    void anUnknownModelIs404ModelNotFound() {
        harness = GatewayHarness.start();

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("llama-5-ultra", false));

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("model_not_found");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("llama-5-ultra");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aBodyOverTheSizeLimitIs413RequestTooLarge() {
        harness = GatewayHarness.start();
        JsonObject huge = openAiRequest("gpt-4o-mini", false).put("user", "x".repeat(20 * 1024));

        Reply reply = harness.client.post("/v1/chat/completions", huge);

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("request_too_large");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void anUpstream4xxIsPassedThroughUnchangedWithoutRetryOrFallback() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("maxAttempts: 1", "maxAttempts: 4"));
        String body = "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: too large\"}}";
        harness.mock.script(MockStep.builder().status(400).body(body).header("content-type", "application/problem+json")
                .header("request-id", "req_011CV").header("x-agentfuse-model", "an-inner-gateway")
                .header("connection", "keep-alive").build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).isEqualTo(body);
        assertThat(reply.header("content-type")).isEqualTo("application/problem+json");
        assertThat(reply.header("request-id")).as("the provider's own headers come along").isEqualTo("req_011CV");
        assertThat(reply.header("connection")).as("one hop's headers do not").isNotEqualTo("keep-alive");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-sonnet-4");
        assertThat(harness.mock.requests()).hasSize(1);
        assertThat(harness.breaker("claude-sonnet-4").snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }
}
