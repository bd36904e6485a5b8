package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /v1/responses} to a model of an OpenAI provider: forwarded as a Responses request
 * (only {@code model} replaced), its answer checked strictly and relayed as sent — over real HTTP,
 * gateway and mock provider on loopback. The chain is {@code gpt-4o-mini} → {@code claude-haiku-4}.
 */
class ResponsesSameDialectScenarioTest {

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    static JsonObject responsesRequest(String model, boolean stream) {
        JsonObject body = new JsonObject().put("model", model).put("input", "Hi");
        return stream ? body.put("stream", true) : body;
    }

    static List<String> types(StreamReply reply) {
        return reply.events().stream().map(SseEvent::event).toList();
    }

    @Test
    void aCompleteAnswerIsForwardedToTheResponsesEndpointWithEveryFieldAndRelayedAsSent() {
        harness.mock.script(MockStep.builder().text("Bonjour").build());
        JsonObject request = responsesRequest("gpt-4o-mini", false).put("store", true)
                .put("brand_new_field", new JsonObject().put("x", 1));

        Reply reply = harness.client.post("/v1/responses", request);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("1");
        JsonObject answer = reply.json();
        assertThat(answer.getString("object")).isEqualTo("response");
        assertThat(answer.getJsonArray("output").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getString("text")).isEqualTo("Bonjour");
        RecordedRequest sent = harness.mock.requests().get(0);
        assertThat(sent.path()).isEqualTo(MockProvider.RESPONSES_PATH);
        assertThat(sent.header("authorization")).contains("Bearer sk-oai-configured");
        assertThat(sent.jsonBody().orElseThrow()).isEqualTo(request);
    }

    @Test
    void anOpenAiProviderServesItsChatCompletionsCallersAsBefore() {
        harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
        harness.client.post("/v1/responses", responsesRequest("gpt-4o-mini", false));

        assertThat(harness.mock.requests()).extracting(RecordedRequest::path)
                .containsExactly(MockProvider.OPENAI_PATH, MockProvider.RESPONSES_PATH);
    }

    @Test
    void aStreamIsRelayedEventByEventWithEveryEventTypeOfTextAndToolCalls() {
        harness.mock.script(MockStep.builder().chunks("Let me ", "check.")
                .toolCall("call_1", "get_weather", new JsonObject().put("city", "Paris")).build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).isEqualTo("text/event-stream");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.cutOff()).isFalse();
        assertThat(types(reply)).containsSubsequence("response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.output_item.added", "response.function_call_arguments.delta",
                "response.function_call_arguments.done", "response.output_item.done", "response.completed");
        assertThat(reply.events().get(reply.events().size() - 1).event()).isEqualTo("response.completed");
        assertThat(reply.data()).doesNotContain("[DONE]");
        assertThat(harness.mock.requests().get(0).jsonBody().orElseThrow().containsKey("stream_options")).isFalse();
    }

    @Test
    void aStreamThatBreaksAfterItsFirstByteEndsWithAnErrorEventAClosedConnectionAndABreakerFailure() {
        harness.mock.script(MockStep.builder().chunks("one ", "two ", "three").drop(MockStep.Drop.MID_STREAM)
                .dropAfterChunks(1).build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.data()).contains("one ");
        // docs/design.md §13: a Responses stream always ends with response.completed, .incomplete or .failed.
        SseEvent errorEvent = reply.events().get(reply.events().size() - 2);
        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(errorEvent.event()).isEqualTo("error");
        JsonObject error = new JsonObject(errorEvent.data());
        assertThat(error.getString("type")).isEqualTo("error");
        assertThat(error.getString("code")).isEqualTo("upstream_error");
        assertThat(error.getJsonObject("error").getString("message")).contains("gpt-4o-mini");
        assertThat(last.event()).isEqualTo("response.failed");
        JsonObject failed = new JsonObject(last.data());
        assertThat(failed.getLong("sequence_number")).isEqualTo(error.getLong("sequence_number") + 1);
        assertThat(failed.getJsonObject("response").getString("status")).isEqualTo("failed");
        assertThat(reply.cutOff()).as("the connection is closed after the error event").isTrue();
        assertThat(harness.breaker("gpt-4o-mini").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void aMalformedEventAfterTheFirstByteEndsTheStreamWithANumberedErrorAndResponseFailed() {
        String created = "{\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\","
                + "\"object\":\"response\",\"created_at\":1,\"status\":\"in_progress\",\"model\":\"gpt-4o-mini\",\"output\":[]}}";
        String delta = "{\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"msg_1\","
                + "\"output_index\":0,\"content_index\":0,\"delta\":\"one \"}";
        // A completion whose usage is negative: not a well-formed answer, and the stream has begun.
        String completed = "{\"type\":\"response.completed\",\"sequence_number\":2,\"response\":{\"id\":\"resp_1\","
                + "\"object\":\"response\",\"created_at\":1,\"status\":\"completed\",\"model\":\"gpt-4o-mini\","
                + "\"output\":[],\"usage\":{\"input_tokens\":-1,\"output_tokens\":2}}}";
        harness.mock.script(MockStep.builder().body("event: response.created\ndata: " + created + "\n\n"
                + "event: response.output_text.delta\ndata: " + delta + "\n\n"
                + "event: response.completed\ndata: " + completed + "\n\n").build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(types(reply)).containsExactly("response.created", "response.output_text.delta", "error", "response.failed");
        JsonObject error = new JsonObject(reply.events().get(2).data());
        JsonObject failed = new JsonObject(reply.events().get(3).data());
        assertThat(error.getLong("sequence_number")).as("after the delta's 1").isGreaterThan(1);
        assertThat(failed.getLong("sequence_number")).isEqualTo(error.getLong("sequence_number") + 1);
        assertThat(failed.getJsonObject("response").getString("id")).isEqualTo("resp_1");
        assertThat(failed.getJsonObject("response").getString("status")).isEqualTo("failed");
        assertThat(reply.cutOff()).as("the connection is closed after the error event").isTrue();
    }

    @Test
    void aStreamThatBreaksBeforeItsFirstByteFallsOverToClaudeTransparently() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().drop(MockStep.Drop.BEFORE_RESPONSE).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().chunks("From ", "Claude").build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).startsWith("gpt-4o-mini=CONNECTION_ERROR");
        assertThat(reply.cutOff()).isFalse();
        assertThat(types(reply)).doesNotContain("error").startsWith("response.created").endsWith("response.completed");
        assertThat(reply.data()).contains("From ", "Claude");
    }

    @Test
    void aMalformedAnswerIsNeverRelayedTheChainFallsOverToClaude() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder()
                .body(new JsonObject().put("object", "response").put("id", "resp_1").put("status", "in_progress")
                        .put("output", new JsonArray())).build());

        Reply reply = harness.client.post("/v1/responses", responsesRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).startsWith("gpt-4o-mini=ERROR");
        assertThat(reply.json().getString("status")).isEqualTo("completed");
        assertThat(harness.breaker("gpt-4o-mini").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void truncatedAnswersEverywhereEndIn502NotIn200() {
        harness.mock.script(MockStep.builder().body("{\"object\":\"response\",\"id\":\"resp_1\",\"sta").times(2).build());

        Reply reply = harness.client.post("/v1/responses", responsesRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("message")).contains("malformed responses answer");
        assertThat(reply.header("x-should-retry")).isEqualTo("false");
    }

    @Test
    void anUpstreamClientErrorIsPassedThroughUnchanged() {
        harness.mock.script(MockStep.builder().status(400).body(new JsonObject().put("error", new JsonObject()
                .put("message", "Unsupported parameter: 'reasoning.effort' is not supported with this model.")
                .put("type", "invalid_request_error").put("param", "reasoning.effort").put("code", "unsupported_parameter")))
                .build());

        Reply reply = harness.client.post("/v1/responses", responsesRequest("gpt-4o-mini", false)
                .put("reasoning", new JsonObject().put("effort", "high")));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("unsupported_parameter");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void badRequestsAreAnsweredInOpenAiErrorShape() {
        Reply noInput = harness.client.post("/v1/responses", new JsonObject().put("model", "gpt-4o-mini"));
        Reply unknown = harness.client.post("/v1/responses", responsesRequest("llama-7", false));

        assertThat(noInput.status()).isEqualTo(400);
        assertThat(noInput.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        assertThat(noInput.json().getJsonObject("error").getString("message")).contains("input");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().getJsonObject("error").getString("type")).isEqualTo("model_not_found");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void theUsageOfAForwardedAnswerOrStreamCountsForTheTokenOveruseTrigger() {
        harness.close();
        // Open long enough to be seen OPEN at the end, however long the machine takes
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 5m")
                .replace("consecutive5xx: 3", "consecutive5xx: 3\n    tokenOveruse: { maxTokensPerCall: 100 }"));
        harness.mock.script(MockStep.builder().inputTokens(90).outputTokens(60).build(),
                MockStep.builder().chunks("a", "b").inputTokens(90).outputTokens(60).build());

        Reply complete = harness.client.post("/v1/responses", responsesRequest("gpt-4o-mini", false));
        String afterComplete = harness.breaker("gpt-4o-mini").snapshot().reason();
        harness.breaker("gpt-4o-mini").reset();
        StreamReply streamed = harness.client.stream("/v1/responses", responsesRequest("gpt-4o-mini", true), Map.of());

        assertThat(complete.status()).isEqualTo(200);
        assertThat(complete.json().getJsonObject("usage").getLong("total_tokens")).isEqualTo(150L);
        assertThat(afterComplete).contains("tokenOveruse");
        assertThat(streamed.cutOff()).isFalse();
        assertThat(harness.breaker("gpt-4o-mini").state().name()).isEqualTo("OPEN");
        assertThat(harness.breaker("gpt-4o-mini").snapshot().reason()).contains("tokenOveruse");
    }

    @Test
    void theModelListIsUnaffected() {
        Reply models = harness.client.get("/v1/models");

        assertThat(models.status()).isEqualTo(200);
        assertThat(models.json().getString("object")).isEqualTo("list");
        assertThat(models.body()).contains("gpt-4o-mini", "claude-haiku-4");
    }
}
