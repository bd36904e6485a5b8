package io.agentfuse.gateway.scenario;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Responses API's edges: state the provider stores under the gateway's key (shared by every
 * caller) is reached only where the configuration allows it, a conversation of 100 000 items is
 * bounded like any other, and a {@code background: true} request, which the provider accepts as
 * {@code queued}, is an answer rather than a failure.
 */
class ResponsesEdgesScenarioTest {

    private static final String CONFIG = """
            server: { port: 0, maxBodySize: 10MB }
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
              trusted: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-trusted", storedResponses: true }
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
            retry: { maxAttempts: 1 }
            breakers:
              default: { consecutiveErrors: 2, resetTimeout: 5m }
            models:
              gpt-4o-mini: { provider: openai }
              team-gpt: { provider: trusted, upstreamModel: gpt-4o-mini }
              claude-haiku-4: { provider: anthropic }
            """;

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static JsonObject ask(String model) {
        return new JsonObject().put("model", model).put("input", "And then?");
    }

    @Test
    void anotherCallersStoredResponseIsNotReachedThroughTheGatewaysKey() {
        harness = GatewayHarness.start(CONFIG);

        Reply reply = harness.client.post("/v1/responses", ask("gpt-4o-mini").put("previous_response_id", "resp_of_someone_else"));

        assertThat(reply.status()).isEqualTo(400);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request");
        assertThat(error.getString("message")).contains("previous_response_id refers to state that provider openai stores"
                + " under the gateway's key").contains("providers.openai.storedResponses: true");
        assertThat(harness.mock.requests()).as("nothing reaches the provider").isEmpty();
    }

    @Test
    void conversationsAndItemReferencesAreRefusedTheSameWay() {
        harness = GatewayHarness.start(CONFIG);

        Reply conversation = harness.client.post("/v1/responses", ask("gpt-4o-mini").put("conversation", "conv_123"));
        Reply reference = harness.client.post("/v1/responses", new JsonObject().put("model", "gpt-4o-mini")
                .put("input", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))
                        .add(new JsonObject().put("type", "item_reference").put("id", "msg_of_someone_else"))));

        assertThat(conversation.status()).isEqualTo(400);
        assertThat(conversation.json().getJsonObject("error").getString("message")).contains("conversation refers to state");
        assertThat(reference.status()).isEqualTo(400);
        assertThat(reference.json().getJsonObject("error").getString("message")).contains("input[1] (an item_reference)");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aProviderConfiguredForStoredResponsesGetsThemAsSent() {
        harness = GatewayHarness.start(CONFIG);
        JsonObject request = ask("team-gpt").put("previous_response_id", "resp_earlier").put("store", true);

        Reply reply = harness.client.post("/v1/responses", request);

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        RecordedRequest sent = harness.mock.requests().get(0);
        assertThat(sent.header("authorization")).contains("Bearer sk-trusted");
        assertThat(sent.jsonBody().orElseThrow().getString("previous_response_id")).isEqualTo("resp_earlier");
    }

    @Test
    void aHundredThousandInputItemsHitTheMessagesBound() {
        harness = GatewayHarness.start(CONFIG);
        JsonArray items = new JsonArray();
        for (int i = 0; i < 100_000; i++) {
            items.add(new JsonObject().put("role", "user").put("content", "x"));
        }

        Reply reply = harness.client.post("/v1/responses", new JsonObject().put("model", "gpt-4o-mini").put("input", items));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .isEqualTo("the request has 100000 input items, more than 10000 (server.maxMessages)");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aBackgroundRequestAcceptedAsQueuedIsPassedOnAndCountsAsASuccess() {
        harness = GatewayHarness.start(CONFIG);
        JsonObject queued = new JsonObject().put("id", "resp_bg1").put("object", "response").put("created_at", 1)
                .put("status", "queued").put("background", true).put("model", "gpt-4o-mini")
                .put("output", new JsonArray()).put("usage", (Object) null);
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(queued).times(3).build());

        Reply[] replies = new Reply[3];
        for (int i = 0; i < replies.length; i++) {
            replies[i] = harness.client.post("/v1/responses", ask("gpt-4o-mini").put("background", true).put("store", true));
        }

        for (Reply reply : replies) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(reply.json()).isEqualTo(queued);
            assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("1");
        }
        assertThat(harness.breaker("gpt-4o-mini").state()).isEqualTo(CircuitState.CLOSED);
        assertThat(harness.breaker("gpt-4o-mini").snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @Test
    void aQueuedAnswerToARequestThatDidNotAskForBackgroundIsStillAFailedAttempt() {
        harness = GatewayHarness.start(CONFIG);
        JsonObject queued = new JsonObject().put("id", "resp_q").put("object", "response").put("created_at", 1)
                .put("status", "queued").put("background", false).put("model", "gpt-4o-mini").put("output", new JsonArray());
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(queued).build());

        Reply reply = harness.client.post("/v1/responses", ask("gpt-4o-mini"));

        assertThat(reply.status()).isEqualTo(502);
    }

    @Test
    void aBackgroundRequestCannotGoToAnotherDialectAndSaysSo() {
        harness = GatewayHarness.start(CONFIG);

        Reply reply = harness.client.post("/v1/responses", ask("claude-haiku-4").put("background", true));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("background: true");
        assertThat(harness.mock.requests()).isEmpty();
    }
}
