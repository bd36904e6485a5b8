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

import static io.agentfuse.gateway.scenario.ResponsesSameDialectScenarioTest.responsesRequest;
import static io.agentfuse.gateway.scenario.ResponsesSameDialectScenarioTest.types;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /v1/responses} answered by Claude models: the request translated to Anthropic
 * Messages, the answer and the stream translated back to Responses objects and events; fallbacks
 * from an OpenAI model to a Claude model; what cannot be translated. Real HTTP on loopback; chains
 * {@code gpt-4o-mini} → {@code claude-haiku-4} and {@code claude-sonnet-4} → {@code claude-haiku-4}
 * → {@code gpt-4o-mini}.
 */
class ResponsesTranslationScenarioTest {

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    private static JsonObject weatherTool() {
        return new JsonObject().put("type", "function").put("name", "get_weather").put("description", "Weather now")
                .put("parameters", new JsonObject().put("type", "object")
                        .put("properties", new JsonObject().put("city", new JsonObject().put("type", "string"))));
    }

    @Test
    void aClaudeModelGetsTheRequestAsAnthropicMessagesAndAnswersAsAResponse() {
        harness.mock.script(MockStep.builder().text("Checking.")
                .toolCall("toolu_1", "get_weather", new JsonObject().put("city", "Paris")).build());
        JsonObject request = responsesRequest("claude-haiku-4", false).put("instructions", "Be brief.")
                .put("tools", new JsonArray().add(weatherTool())).put("max_output_tokens", 200);

        Reply reply = harness.client.post("/v1/responses", request);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        RecordedRequest sent = harness.mock.requests().get(0);
        assertThat(sent.path()).isEqualTo(MockProvider.ANTHROPIC_PATH);
        assertThat(sent.header("x-api-key")).contains("sk-ant-configured");
        JsonObject anthropic = sent.jsonBody().orElseThrow();
        assertThat(anthropic.getString("model")).isEqualTo("claude-haiku-4-5");
        assertThat(anthropic.getString("system")).isEqualTo("Be brief.");
        assertThat(anthropic.getInteger("max_tokens")).isEqualTo(200);
        assertThat(anthropic.getJsonArray("tools").getJsonObject(0).getString("name")).isEqualTo("get_weather");
        JsonObject answer = reply.json();
        assertThat(answer.getString("object")).isEqualTo("response");
        assertThat(answer.getString("status")).isEqualTo("completed");
        JsonArray output = answer.getJsonArray("output");
        assertThat(output.getJsonObject(0).getString("type")).isEqualTo("message");
        assertThat(output.getJsonObject(0).getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("Checking.");
        JsonObject call = output.getJsonObject(1);
        assertThat(call.getString("type")).isEqualTo("function_call");
        assertThat(call.getString("call_id")).isEqualTo("toolu_1");
        assertThat(new JsonObject(call.getString("arguments")).getString("city")).isEqualTo("Paris");
        assertThat(answer.getJsonObject("usage").getLong("input_tokens")).isEqualTo(10L);
    }

    @Test
    void aClaudeStreamBecomesEveryResponsesEventNumberedInOrder() {
        harness.mock.script(MockStep.builder().chunks("Let me ", "check.")
                .toolCall("toolu_1", "get_weather", new JsonObject().put("city", "Paris")).build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("claude-haiku-4", true)
                .put("tools", new JsonArray().add(weatherTool())), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.cutOff()).isFalse();
        assertThat(types(reply)).containsExactly("response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta",
                "response.output_text.delta", "response.output_text.done", "response.content_part.done",
                "response.output_item.done", "response.output_item.added", "response.function_call_arguments.delta",
                "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done", "response.completed");
        List<JsonObject> data = reply.events().stream().map(event -> new JsonObject(event.data())).toList();
        for (int i = 0; i < data.size(); i++) {
            assertThat(data.get(i).getLong("sequence_number")).isEqualTo(i);
            assertThat(data.get(i).getString("type")).isEqualTo(reply.events().get(i).event());
        }
        JsonObject completed = data.get(data.size() - 1).getJsonObject("response");
        assertThat(completed.getJsonArray("output")).hasSize(2);
        assertThat(completed.getJsonObject("usage").getLong("output_tokens")).isPositive();
        assertThat(reply.data()).contains("Let me ", "check.", "get_weather");
    }

    @Test
    void aClaudeStreamCutByLengthEndsWithResponseIncomplete() {
        harness.mock.script(MockStep.builder().chunks("Long ", "answer").finishReason("length").build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("claude-haiku-4", true), Map.of());

        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(last.event()).isEqualTo("response.incomplete");
        assertThat(new JsonObject(last.data()).getJsonObject("response").getJsonObject("incomplete_details")
                .getString("reason")).isEqualTo("max_output_tokens");
    }

    @Test
    void anOpenAiModelThatFailsFallsOverToAClaudeModelWhichAnswersInResponsesShape() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(500).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("Claude here.").build());

        Reply reply = harness.client.post("/v1/responses", responsesRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("2");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gpt-4o-mini=SERVER_ERROR(HTTP 500)");
        assertThat(reply.json().getString("object")).isEqualTo("response");
        assertThat(reply.json().getJsonArray("output").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getString("text")).isEqualTo("Claude here.");
        assertThat(harness.mock.requests()).extracting(RecordedRequest::path)
                .containsExactly(MockProvider.RESPONSES_PATH, MockProvider.ANTHROPIC_PATH);
    }

    @Test
    void anOpenAiModelWithAnOpenBreakerIsSkippedAndTheClaudeModelStreamsResponsesEvents() {
        harness.breaker("gpt-4o-mini").forceOpen("operator");
        harness.mock.script(MockStep.builder().chunks("Claude ", "streams").build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gpt-4o-mini=circuit_open");
        assertThat(types(reply)).startsWith("response.created").endsWith("response.completed");
        assertThat(harness.mock.requests()).extracting(RecordedRequest::path).containsExactly(MockProvider.ANTHROPIC_PATH);
    }

    @Test
    void aTranslatedStreamThatBreaksAfterItsFirstByteEndsWithErrorAndResponseFailed() {
        harness.mock.script(MockStep.builder().chunks("one ", "two ", "three").drop(MockStep.Drop.MID_STREAM)
                .dropAfterChunks(1).build());

        StreamReply reply = harness.client.stream("/v1/responses", responsesRequest("claude-haiku-4", true), Map.of());

        assertThat(reply.data()).contains("one ");
        List<String> types = types(reply);
        assertThat(types.subList(types.size() - 2, types.size())).containsExactly("error", "response.failed");
        JsonObject failed = new JsonObject(reply.events().get(types.size() - 1).data());
        assertThat(failed.getJsonObject("response").getString("status")).isEqualTo("failed");
        assertThat(failed.getLong("sequence_number")).isEqualTo(types.size() - 1L);
        assertThat(reply.cutOff()).isTrue();
        assertThat(harness.breaker("claude-haiku-4").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void aRequestThatNeedsOpenAisStoredStateCannotGoToAClaudeModel() {
        Reply reply = harness.client.post("/v1/responses", responsesRequest("claude-haiku-4", false)
                .put("previous_response_id", "resp_earlier"));

        assertThat(reply.status()).isEqualTo(400);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request");
        assertThat(error.getString("message")).contains("previous_response_id");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-haiku-4=untranslatable");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void claudeStepsThatCannotTakeTheRequestAreSkippedWithTheReasonAndTheOpenAiStepAnswers() {
        // A stored prompt template: refused across dialects, and (unlike another caller's stored
        // response, which storedResponses guards) the organisation's own to use on an OpenAI step.
        Reply reply = harness.client.post("/v1/responses", responsesRequest("claude-sonnet-4", false)
                .put("store", true).put("prompt", new JsonObject().put("id", "pmpt_earlier")));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-fallbacks"))
                .isEqualTo("claude-sonnet-4=untranslatable; claude-haiku-4=untranslatable");
        assertThat(harness.mock.requests()).singleElement().satisfies(sent -> {
            assertThat(sent.path()).isEqualTo(MockProvider.RESPONSES_PATH);
            assertThat(sent.jsonBody().orElseThrow().getBoolean("store")).isTrue();
        });
    }

    @Test
    void whenTheOnlyStepThatCouldTakeTheRequestFailsTheSkippedOnesAreListed() {
        harness.mock.script(MockStep.builder().status(500).build());

        Reply reply = harness.client.post("/v1/responses", responsesRequest("gpt-4o-mini", false)
                .put("tools", new JsonArray().add(new JsonObject().put("type", "web_search"))));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("web_search");
        assertThat(reply.header("x-agentfuse-fallbacks"))
                .isEqualTo("gpt-4o-mini=SERVER_ERROR(HTTP 500); claude-haiku-4=untranslatable");
    }
}
