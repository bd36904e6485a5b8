package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.anthropic.AnthropicResponseCodec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResponsesResponseCodecTest {

    private static ChatResponse toolAnswer() {
        return new ChatResponse("msg_01", "claude-haiku-4-5", 1_700_000_000L,
                List.of(new ContentPart.Text("Checking."), new ContentPart.ToolCall("toolu_1", "get_weather", "{\"city\":\"Paris\"}")),
                FinishReason.TOOL_CALLS, null, Usage.of(12, 30));
    }

    /** A complete answer as the OpenAI Responses API sends it. */
    private static JsonObject upstreamAnswer() {
        return new JsonObject().put("id", "resp_1").put("object", "response").put("created_at", 1741476542)
                .put("status", "completed").put("model", "gpt-4.1-mini").put("error", null)
                .put("output", new JsonArray()
                        .add(new JsonObject().put("type", "reasoning").put("id", "rs_1").put("summary", new JsonArray()))
                        .add(new JsonObject().put("type", "message").put("id", "msg_1").put("role", "assistant")
                                .put("status", "completed").put("content", new JsonArray()
                                        .add(new JsonObject().put("type", "output_text").put("text", "Hi there")
                                                .put("annotations", new JsonArray()))))
                        .add(new JsonObject().put("type", "function_call").put("id", "fc_1").put("call_id", "call_1")
                                .put("name", "get_weather").put("arguments", "{}").put("status", "completed")))
                .put("usage", new JsonObject().put("input_tokens", 36).put("output_tokens", 87).put("total_tokens", 123)
                        .put("input_tokens_details", new JsonObject().put("cached_tokens", 0)));
    }

    @Test
    void writesTextAsOneMessageItemAndToolCallsAsFunctionCallItems() {
        JsonObject body = ResponsesResponseCodec.write(toolAnswer(), null);

        assertThat(body.getString("id")).isEqualTo("resp_msg_01");
        assertThat(body.getString("object")).isEqualTo("response");
        assertThat(body.getString("status")).isEqualTo("completed");
        assertThat(body.getLong("created_at")).isEqualTo(1_700_000_000L);
        assertThat(body.getString("model")).isEqualTo("claude-haiku-4-5");
        JsonArray output = body.getJsonArray("output");
        assertThat(output).hasSize(2);
        JsonObject message = output.getJsonObject(0);
        assertThat(message.getString("type")).isEqualTo("message");
        assertThat(message.getString("role")).isEqualTo("assistant");
        assertThat(message.getJsonArray("content").getJsonObject(0).getString("type")).isEqualTo("output_text");
        assertThat(message.getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("Checking.");
        JsonObject call = output.getJsonObject(1);
        assertThat(call.getString("type")).isEqualTo("function_call");
        assertThat(call.getString("call_id")).isEqualTo("toolu_1");
        assertThat(call.getString("id")).startsWith("fc_").isNotEqualTo(message.getString("id"));
        assertThat(call.getString("arguments")).isEqualTo("{\"city\":\"Paris\"}");
        assertThat(body.getJsonObject("usage")).isEqualTo(new JsonObject().put("input_tokens", 12)
                .put("input_tokens_details", new JsonObject().put("cached_tokens", 0).put("cache_write_tokens", 0)).put("output_tokens", 30)
                .put("output_tokens_details", new JsonObject().put("reasoning_tokens", 0)).put("total_tokens", 42));
    }

    @Test
    void aCallOfAFlattenedNamespaceFunctionNamesItsNamespaceAgainForTheCaller() {
        var caller = ResponsesRequestParser.parse(new JsonObject().put("model", "gpt-5").put("input", "Hi")
                .put("tools", new JsonArray().add(new JsonObject().put("type", "namespace").put("name", "agents")
                        .put("description", "sub-agents").put("tools", new JsonArray().add(new JsonObject()
                                .put("type", "function").put("name", "close_agent"))))
                        .add(new JsonObject().put("type", "function").put("name", "plain__name"))));
        ChatResponse answer = new ChatResponse("msg_01", "claude-haiku-4-5", 1_700_000_000L, List.of(
                new ContentPart.ToolCall("toolu_1", "agents__close_agent", "{}"),
                new ContentPart.ToolCall("toolu_2", "plain__name", "{}")), FinishReason.TOOL_CALLS, null, Usage.of(1, 2));

        JsonArray output = Dialects.RESPONSES.writeResponse(answer, caller).getJsonArray("output");

        assertThat(output.getJsonObject(0).getString("namespace")).isEqualTo("agents");
        assertThat(output.getJsonObject(0).getString("name")).isEqualTo("close_agent");
        assertThat(output.getJsonObject(1).containsKey("namespace")).isFalse(); // a plain function keeps its name
        assertThat(output.getJsonObject(1).getString("name")).isEqualTo("plain__name");
    }

    @Test
    void echoesTheCallersSettingsInTheResponseObject() {
        JsonObject request = new JsonObject().put("model", "gpt-4.1").put("input", "Hi").put("instructions", "Be brief.")
                .put("temperature", 0.2).put("tool_choice", "required").put("metadata", new JsonObject().put("k", "v"));

        JsonObject body = ResponsesResponseCodec.write(toolAnswer(), request);

        assertThat(body.getString("instructions")).isEqualTo("Be brief.");
        assertThat(body.getDouble("temperature")).isEqualTo(0.2);
        assertThat(body.getString("tool_choice")).isEqualTo("required");
        assertThat(body.getJsonObject("metadata").getString("k")).isEqualTo("v");
        assertThat(body.getBoolean("parallel_tool_calls")).isTrue();
    }

    @Test
    void anAnswerCutByLengthIsIncompleteWithItsReason() {
        ChatResponse cut = new ChatResponse("msg_2", "m", 1, List.of(new ContentPart.Text("Once upon")),
                FinishReason.LENGTH, null, Usage.of(1, 2));

        JsonObject body = ResponsesResponseCodec.write(cut, null);

        assertThat(body.getString("status")).isEqualTo("incomplete");
        assertThat(body.getJsonObject("incomplete_details").getString("reason")).isEqualTo("max_output_tokens");
        assertThat(ResponsesResponseCodec.read(body).finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void readsAnUpstreamAnswerSkippingReasoning() {
        ChatResponse answer = ResponsesResponseCodec.read(upstreamAnswer().encode());

        assertThat(answer.id()).isEqualTo("resp_1");
        assertThat(answer.model()).isEqualTo("gpt-4.1-mini");
        assertThat(answer.created()).isEqualTo(1741476542L);
        assertThat(answer.content()).containsExactly(new ContentPart.Text("Hi there"),
                new ContentPart.ToolCall("call_1", "get_weather", "{}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(answer.usage()).isEqualTo(Usage.of(36, 87));
    }

    @Test
    void roundTripsThroughTheNeutralModel() {
        ChatResponse answer = toolAnswer();

        ChatResponse again = ResponsesResponseCodec.read(ResponsesResponseCodec.write(answer, null));

        assertThat(again.content()).isEqualTo(answer.content());
        assertThat(again.finishReason()).isEqualTo(answer.finishReason());
        assertThat(again.usage()).isEqualTo(answer.usage());
        assertThat(again.model()).isEqualTo(answer.model());
    }

    @Test
    void translatesAnAnthropicAnswerForAResponsesCaller() {
        JsonObject anthropic = new JsonObject().put("id", "msg_01").put("type", "message").put("role", "assistant")
                .put("model", "claude-haiku-4-5").put("stop_reason", "end_turn")
                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "Bonjour")))
                .put("usage", new JsonObject().put("input_tokens", 5).put("output_tokens", 1));

        JsonObject body = ResponsesResponseCodec.write(AnthropicResponseCodec.read(anthropic, 99), null);

        assertThat(body.getString("status")).isEqualTo("completed");
        assertThat(body.getJsonArray("output").getJsonObject(0).getJsonArray("content").getJsonObject(0).getString("text"))
                .isEqualTo("Bonjour");
        assertThat(body.getJsonObject("usage").getLong("total_tokens")).isEqualTo(6L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void anEmptyBodyIsMalformed(String body) {
        assertThatThrownBy(() -> ResponsesResponseCodec.read(body))
                .isInstanceOf(MalformedAnswerException.class).hasMessage("the upstream answer is empty");
    }

    @Test
    void aTruncatedOrNonJsonBodyIsMalformed() {
        String whole = upstreamAnswer().encode();

        assertThatThrownBy(() -> ResponsesResponseCodec.read(whole.substring(0, whole.length() / 2)))
                .isInstanceOf(MalformedAnswerException.class).hasMessage("the upstream answer is not JSON, or is truncated");
        assertThatThrownBy(() -> ResponsesResponseCodec.read("<html>502 Bad Gateway</html>"))
                .isInstanceOf(MalformedAnswerException.class).hasMessage("the upstream answer is not JSON, or is truncated");
        assertThatThrownBy(() -> ResponsesResponseCodec.read("[1, 2]"))
                .isInstanceOf(MalformedAnswerException.class)
                .hasMessage("the upstream answer must be a JSON object, but was an array");
    }

    @Test
    void anAnswerOfTheWrongShapeIsMalformed() {
        JsonObject chatCompletion = new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion")
                .put("choices", new JsonArray());

        assertThatThrownBy(() -> ResponsesResponseCodec.read(chatCompletion))
                .isInstanceOf(MalformedAnswerException.class)
                .hasMessage("object must be \"response\", but was \"chat.completion\"");
        assertThatThrownBy(() -> ResponsesResponseCodec.read(upstreamAnswer().put("output", (Object) null)))
                .isInstanceOf(MalformedAnswerException.class).hasMessage("output is missing");
        assertThatThrownBy(() -> ResponsesResponseCodec.read(upstreamAnswer().put("status", "in_progress")))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("status is \"in_progress\", not a finished answer");
        assertThatThrownBy(() -> ResponsesResponseCodec.read(upstreamAnswer().put("status", "failed")
                .put("error", new JsonObject().put("code", "server_error").put("message", "boom"))))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("boom");
    }

    @Test
    void fieldsOfTheWrongTypeAreNamedWithoutJavaTerms() {
        JsonObject badText = upstreamAnswer();
        badText.getJsonArray("output").getJsonObject(1).getJsonArray("content").getJsonObject(0).put("text", 3);
        JsonObject badItem = upstreamAnswer();
        badItem.getJsonArray("output").set(0, "reasoning");
        JsonObject badUsage = upstreamAnswer();
        badUsage.getJsonObject("usage").put("output_tokens", "many");
        JsonObject negativeUsage = upstreamAnswer();
        negativeUsage.getJsonObject("usage").put("input_tokens", -1);
        JsonObject badCall = upstreamAnswer();
        badCall.getJsonArray("output").getJsonObject(2).put("arguments", new JsonObject());

        assertMalformed(badText, "output[1].content[0].text must be a string, but was 3");
        assertMalformed(badItem, "output[0] must be an object, but was \"reasoning\"");
        assertMalformed(badUsage, "usage.output_tokens must be a number >= 0, but was \"many\"");
        assertMalformed(negativeUsage, "usage.input_tokens must be a number >= 0, but was -1");
        assertMalformed(badCall, "output[2].arguments must be a string, but was an object");
        assertMalformed(upstreamAnswer().put("output", "none"), "output must be an array, but was \"none\"");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1e30", "99999999999999999999", "1e19", "9223372036854775808"})
    void aCountPastTheLargestLongIsReadAsTheLargestAsTheOtherDialectsReadIt(String count) {
        String body = upstreamAnswer().encode().replace("\"input_tokens\":36", "\"input_tokens\":" + count);

        assertThat(ResponsesResponseCodec.read(body).usage()).isEqualTo(Usage.of(Long.MAX_VALUE, 87));
    }

    @Test
    void aCountWithAFractionIsReadAsItsWholePartAsTheOtherDialectsReadIt() {
        String body = upstreamAnswer().encode().replace("\"output_tokens\":87", "\"output_tokens\":87.5");

        assertThat(ResponsesResponseCodec.read(body).usage()).isEqualTo(Usage.of(36, 87));
    }

    private static void assertMalformed(JsonObject body, String message) {
        assertThatThrownBy(() -> ResponsesResponseCodec.read(body.encode()))
                .isInstanceOf(MalformedAnswerException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("java", "Exception", "class "));
    }
}
