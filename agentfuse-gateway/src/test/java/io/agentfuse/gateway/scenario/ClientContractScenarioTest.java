package io.agentfuse.gateway.scenario;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What SDK clients rely on beyond the error table: {@code x-should-retry} on every error the
 * gateway makes, the caller's fields and version headers passed on within a dialect, JSON errors
 * on every path, and the gateway's own key refused upstream.
 */
class ClientContractScenarioTest {

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void circuitOpenWithALongWaitTellsClientsNotToRetry() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 5m"));
        openUntilTripped("claude-haiku-4-5", "claude-haiku-4");

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(Long.parseLong(reply.header("retry-after"))).isGreaterThan(20);
        assertThat(reply.header("x-should-retry")).isEqualTo("false");
    }

    /** On a clock that stands still: the breaker cannot half-open between the trip and the call, however slow the machine. */
    @Test
    void circuitOpenWithAShortWaitTellsClientsToRetry() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 10s"),
                GatewayOptions.builder().port(0).clock(new ManualClock()).build());
        openUntilTripped("claude-haiku-4-5", "claude-haiku-4");

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.header("retry-after")).as("the whole open time: none of it has passed").isEqualTo("10");
        assertThat(reply.header("x-should-retry")).isEqualTo("true");
    }

    @Test
    void a502AndA4xxOfTheGatewayTellClientsNotToRetry() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().status(500).build());

        Reply failed = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));
        Reply unknownModel = harness.client.post("/v1/messages", anthropicRequest("llama-99", false));

        assertThat(failed.status()).isEqualTo(502);
        assertThat(failed.header("x-should-retry")).isEqualTo("false");
        assertThat(unknownModel.status()).isEqualTo(404);
        assertThat(unknownModel.header("x-should-retry")).isEqualTo("false");
    }

    @Test
    void aRequestNoStepCanTranslateIs400NamingTheField() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }\n  gpt-4o: { provider: anthropic, fallbacks: [claude-haiku-4] }"));

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o", false).put("n", 2));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.header("x-should-retry")).isEqualTo("false");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("n=2");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void fieldsTheGatewayDoesNotKnowGoUpstreamUnchangedWithinADialect() {
        harness = GatewayHarness.start();
        JsonObject request = anthropicRequest("claude-haiku-4", false)
                .put("output_config", new JsonObject().put("format", new JsonObject().put("type", "json_schema")))
                .put("cache_control", new JsonObject().put("type", "ephemeral"));

        Reply reply = harness.client.post("/v1/messages", request);

        assertThat(reply.status()).isEqualTo(200);
        JsonObject sent = harness.mock.requests().get(0).jsonBody().orElseThrow();
        assertThat(sent.getJsonObject("output_config")).isEqualTo(request.getJsonObject("output_config"));
        assertThat(sent.getJsonObject("cache_control")).isEqualTo(request.getJsonObject("cache_control"));
    }

    @Test
    void anOpenAiFieldTheGatewayDoesNotKnowGoesToOpenAiButSkipsAnthropicSteps() {
        harness = GatewayHarness.start();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(500).build());

        Reply reply = harness.client.post("/v1/chat/completions",
                openAiRequest("gpt-4o-mini", false).put("brand_new_option", "24h"));

        assertThat(harness.mock.requests().get(0).jsonBody().orElseThrow().getString("brand_new_option")).isEqualTo("24h");
        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gpt-4o-mini=SERVER_ERROR(HTTP 500); claude-haiku-4=untranslatable");
    }

    @Test
    void theCallersAnthropicVersionAndBetaAreForwarded() {
        harness = GatewayHarness.start();

        harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false),
                Map.of("anthropic-version", "2024-10-22", "anthropic-beta", "output-128k-2025-02-19"));
        harness.client.post("/v1/chat/completions", openAiRequest("claude-haiku-4", false));

        RecordedRequest fromAnthropicCaller = harness.mock.requests().get(0);
        assertThat(fromAnthropicCaller.header("anthropic-version")).contains("2024-10-22");
        assertThat(fromAnthropicCaller.header("anthropic-beta")).contains("output-128k-2025-02-19");
        assertThat(fromAnthropicCaller.header("x-api-key")).contains("sk-ant-configured");
        assertThat(harness.mock.requests().get(1).header("anthropic-version")).contains("2023-06-01");
    }

    @Test
    void unknownPathsAndWrongMethodsAreJsonErrorsInTheCallersDialect() {
        harness = GatewayHarness.start();

        Reply models = harness.client.get("/v2/models");
        Reply anthropicCaller = harness.client.send(HttpMethod.POST, "/messages", Buffer.buffer("{}"),
                Map.of("anthropic-version", "2023-06-01"));
        Reply wrongMethod = harness.client.get("/v1/chat/completions");

        assertThat(models.status()).isEqualTo(404);
        assertThat(models.json().getJsonObject("error").getString("type")).isEqualTo("not_found");
        assertThat(anthropicCaller.status()).isEqualTo(404);
        assertThat(anthropicCaller.json().getString("type")).isEqualTo("error");
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.header("content-type")).isEqualTo("application/json");
        assertThat(wrongMethod.json().getJsonObject("error").getString("message")).contains("GET");
    }

    /** Regression: a 405 carried no Allow header, which RFC 9110 says it must. */
    @Test
    void aWrongMethodIsAnsweredWithTheMethodsThePathTakes() {
        harness = GatewayHarness.start();

        Map<String, String> allowed = new java.util.LinkedHashMap<>();
        for (String[] request : new String[][] {{"GET", "/v1/messages"}, {"PUT", "/v1/chat/completions"},
                {"POST", "/healthz"}, {"POST", "/v1/models"}, {"DELETE", "/v1/models/gpt-4o-mini"},
                {"GET", "/v1beta/models/gpt-4o-mini:generateContent"}, {"PATCH", "/v1/messages/count_tokens"},
                {"PUT", "/metrics"}}) {
            Reply reply = harness.client.send(HttpMethod.valueOf(request[0]), request[1], Buffer.buffer(), Map.of());
            assertThat(reply.status()).as(request[0] + " " + request[1]).isEqualTo(405);
            allowed.put(request[1], reply.header("allow"));
        }

        assertThat(allowed).containsExactly(Map.entry("/v1/messages", "POST"), Map.entry("/v1/chat/completions", "POST"),
                Map.entry("/healthz", "GET, HEAD"), Map.entry("/v1/models", "GET"), Map.entry("/v1/models/gpt-4o-mini", "GET"),
                Map.entry("/v1beta/models/gpt-4o-mini:generateContent", "POST"), Map.entry("/v1/messages/count_tokens", "POST"),
                Map.entry("/metrics", "GET"));
    }

    @Test
    void postingToTheBreakerListWithAValidTokenIsAJsonErrorNotA500() {
        harness = GatewayHarness.start();

        Reply reply = harness.client.send(HttpMethod.POST, "/admin/breakers", Buffer.buffer(),
                Map.of("authorization", "Bearer " + GatewayHarness.ADMIN_TOKEN));

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("not_found");
    }

    @Test
    void aProviderRefusingTheGatewaysKeyFallsBackWithoutRetry() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("maxAttempts: 1", "maxAttempts: 3"));
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(401).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(harness.requestsFor("claude-sonnet-4-5")).isEqualTo(1);
    }

    @Test
    void aChainEndingWithARefusedKeyIs502UpstreamAuthFailedNamingTheProvider() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().status(403).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("upstream_auth_failed");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("anthropic", "apiKey");
    }

    /** Regression: a step whose key was refused showed a bare {@code ERROR}, not what to check. */
    @Test
    void aStepWhoseKeyIsRefusedIsNamedSoInTheFallbacksHeader() {
        harness = GatewayHarness.start();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(401).build());

        Reply reply = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "gpt-4o-mini")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hello?"))));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gpt-4o-mini=ERROR(HTTP 401 credentials refused)");
    }

    @Test
    void aFullBulkheadIs429OverloadedWithRetryAfter() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5 }",
                "claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5, maxConcurrent: 1 }"));
        harness.mock.script(MockStep.builder().delayMs(2_000).build());
        Future<Reply> first = harness.vertx.executeBlocking(() ->
                harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false)), false);
        Eventually.holds(harness.vertx, () -> harness.mock.requests().size() == 1);

        Reply second = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(second.status()).isEqualTo(429);
        assertThat(second.json().getJsonObject("error").getString("type")).isEqualTo("overloaded");
        assertThat(second.header("retry-after")).isEqualTo("1");
        assertThat(second.header("retry-after-ms")).isEqualTo("1000");
        assertThat(second.header("x-should-retry")).isEqualTo("true"); // a short wait: the client's retry is welcome
        assertThat(Await.result(first).status()).isEqualTo(200);
    }

    /** Sends failing requests for {@code model} until its breaker has opened (consecutive5xx: 3). */
    private void openUntilTripped(String upstreamModel, String model) {
        harness.mock.scriptForModel(upstreamModel, MockStep.builder().status(500).times(3).build());
        for (int i = 0; i < 3; i++) {
            harness.client.post("/v1/messages", anthropicRequest(model, false));
        }
        assertThat(harness.breaker(model).state().name()).isEqualTo("OPEN");
    }
}
