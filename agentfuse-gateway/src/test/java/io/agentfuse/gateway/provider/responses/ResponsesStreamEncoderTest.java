package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResponsesStreamEncoderTest {

    private final ResponsesStreamEncoder encoder = new ResponsesStreamEncoder(
            new JsonObject().put("model", "gpt-4.1").put("input", "Hi").put("instructions", "Be brief."), 1_700_000_000L);

    private List<SseEvent> encode(StreamEvent... events) {
        List<SseEvent> out = new ArrayList<>();
        for (StreamEvent event : events) {
            out.addAll(encoder.encode(event));
        }
        return out;
    }

    private static List<String> types(List<SseEvent> events) {
        return events.stream().map(SseEvent::event).toList();
    }

    private static JsonObject data(List<SseEvent> events, String type) {
        return events.stream().filter(e -> type.equals(e.event())).map(e -> new JsonObject(e.data())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " event"));
    }

    private static final StreamEvent START = new StreamEvent.Start("msg_01", "claude-haiku-4-5", Usage.of(9, 0));

    @Test
    void encodesATextAnswerAsTheResponsesEventSequence() {
        List<SseEvent> events = encode(START, new StreamEvent.TextDelta("Hel"), new StreamEvent.TextDelta("lo"),
                new StreamEvent.Finish(FinishReason.STOP, null, Usage.of(9, 2)));

        assertThat(types(events)).containsExactly("response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta",
                "response.output_text.delta", "response.output_text.done", "response.content_part.done",
                "response.output_item.done", "response.completed");
        for (int i = 0; i < events.size(); i++) {
            JsonObject data = new JsonObject(events.get(i).data());
            assertThat(data.getString("type")).isEqualTo(events.get(i).event());
            assertThat(data.getLong("sequence_number")).isEqualTo(i);
        }
    }

    @Test
    void theCreatedResponseIsInProgressAndEchoesTheRequest() {
        JsonObject response = data(encode(START), "response.created").getJsonObject("response");

        assertThat(response.getString("id")).isEqualTo("resp_msg_01");
        assertThat(response.getString("object")).isEqualTo("response");
        assertThat(response.getString("status")).isEqualTo("in_progress");
        assertThat(response.getString("model")).isEqualTo("claude-haiku-4-5");
        assertThat(response.getLong("created_at")).isEqualTo(1_700_000_000L);
        assertThat(response.getString("instructions")).isEqualTo("Be brief.");
        assertThat(response.containsKey("input")).as("the conversation is never repeated").isFalse();
        assertThat(response.getJsonArray("output")).isEmpty();
        assertThat(response.getValue("usage")).isNull();
    }

    @Test
    void textEventsReferToTheirItemAndThePartCarriesTheWholeText() {
        List<SseEvent> events = encode(START, new StreamEvent.TextDelta("Hel"), new StreamEvent.TextDelta("lo"),
                new StreamEvent.Finish(FinishReason.STOP, null, Usage.of(9, 2)));

        String itemId = data(events, "response.output_item.added").getJsonObject("item").getString("id");
        JsonObject delta = data(events, "response.output_text.delta");
        assertThat(delta.getString("item_id")).isEqualTo(itemId);
        assertThat(delta.getInteger("output_index")).isZero();
        assertThat(delta.getInteger("content_index")).isZero();
        assertThat(delta.getString("delta")).isEqualTo("Hel");
        assertThat(data(events, "response.output_text.done").getString("text")).isEqualTo("Hello");
        assertThat(data(events, "response.content_part.done").getJsonObject("part").getString("text")).isEqualTo("Hello");
        JsonObject item = data(events, "response.output_item.done").getJsonObject("item");
        assertThat(item.getString("status")).isEqualTo("completed");
        assertThat(item.getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("Hello");
    }

    @Test
    void theCompletedEventCarriesTheWholeResponseWithUsage() {
        List<SseEvent> events = encode(START, new StreamEvent.TextDelta("Hello"),
                new StreamEvent.Finish(FinishReason.STOP, null, Usage.of(9, 2)));

        JsonObject response = data(events, "response.completed").getJsonObject("response");
        assertThat(response.getString("status")).isEqualTo("completed");
        assertThat(response.getJsonArray("output")).hasSize(1);
        assertThat(response.getJsonObject("usage").getLong("input_tokens")).isEqualTo(9L);
        assertThat(response.getJsonObject("usage").getLong("output_tokens")).isEqualTo(2L);
        assertThat(response.getJsonObject("usage").getLong("total_tokens")).isEqualTo(11L);
        assertThat(ResponsesResponseCodec.read(response).content()).hasSize(1);
    }

    @Test
    void aStreamedCallOfAFlattenedNamespaceFunctionNamesItsNamespaceAgain() {
        var caller = ResponsesRequestParser.parse(new JsonObject().put("model", "gpt-5").put("input", "Hi")
                .put("tools", new JsonArray().add(new JsonObject().put("type", "namespace").put("name", "agents")
                        .put("description", "sub-agents").put("tools", new JsonArray().add(new JsonObject()
                                .put("type", "function").put("name", "close_agent"))))));
        var namespaced = Dialects.RESPONSES.streamEncoder(false, io.agentfuse.core.Clock.system(), caller);
        List<SseEvent> events = new java.util.ArrayList<>();
        for (StreamEvent event : List.of(START, new StreamEvent.ToolCallStart(0, "toolu_1", "agents__close_agent"),
                new StreamEvent.ToolCallDelta(0, "{}"), new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(1, 2)))) {
            events.addAll(namespaced.encode(event));
        }

        JsonObject done = data(events, "response.function_call_arguments.done");
        assertThat(done.getString("namespace")).isEqualTo("agents");
        assertThat(done.getString("name")).isEqualTo("close_agent");
        JsonObject item = data(events, "response.completed").getJsonObject("response").getJsonArray("output").getJsonObject(0);
        assertThat(item.getString("namespace")).isEqualTo("agents");
        assertThat(item.getString("name")).isEqualTo("close_agent");
    }

    @Test
    void encodesToolCallsAsFunctionCallItemsAfterTheText() {
        List<SseEvent> events = encode(START, new StreamEvent.TextDelta("Checking."),
                new StreamEvent.ToolCallStart(0, "toolu_1", "get_weather"),
                new StreamEvent.ToolCallDelta(0, "{\"city\":"), new StreamEvent.ToolCallDelta(0, "\"Paris\"}"),
                new StreamEvent.ToolCallStart(1, "toolu_2", "get_time"),
                new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(9, 20)));

        assertThat(types(events).subList(5, events.size())).containsExactly(
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.output_item.added", "response.function_call_arguments.delta",
                "response.function_call_arguments.delta", "response.function_call_arguments.done",
                "response.output_item.done", "response.output_item.added", "response.function_call_arguments.done",
                "response.output_item.done", "response.completed");
        JsonObject added = events.stream().filter(e -> "response.output_item.added".equals(e.event()))
                .map(e -> new JsonObject(e.data())).skip(1).findFirst().orElseThrow();
        assertThat(added.getInteger("output_index")).isEqualTo(1);
        assertThat(added.getJsonObject("item").getString("type")).isEqualTo("function_call");
        assertThat(added.getJsonObject("item").getString("call_id")).isEqualTo("toolu_1");
        assertThat(added.getJsonObject("item").getString("arguments")).isEmpty();
        JsonObject done = data(events, "response.function_call_arguments.done");
        assertThat(done.getString("item_id")).isEqualTo(added.getJsonObject("item").getString("id"));
        assertThat(done.getString("name")).isEqualTo("get_weather");
        assertThat(done.getString("arguments")).isEqualTo("{\"city\":\"Paris\"}");
        JsonObject response = data(events, "response.completed").getJsonObject("response");
        assertThat(response.getJsonArray("output")).hasSize(3);
        assertThat(response.getJsonArray("output").getJsonObject(2).getString("call_id")).isEqualTo("toolu_2");
    }

    @Test
    void anAnswerCutByLengthEndsWithResponseIncomplete() {
        List<SseEvent> events = encode(START, new StreamEvent.TextDelta("Once"),
                new StreamEvent.Finish(FinishReason.LENGTH, null, Usage.of(1, 1)));

        JsonObject last = new JsonObject(events.get(events.size() - 1).data());
        assertThat(last.getString("type")).isEqualTo("response.incomplete");
        assertThat(last.getJsonObject("response").getString("status")).isEqualTo("incomplete");
        assertThat(last.getJsonObject("response").getJsonObject("incomplete_details").getString("reason"))
                .isEqualTo("max_output_tokens");
    }

    @Test
    void aFailureAfterTheStartSendsErrorThenResponseFailed() {
        List<SseEvent> events = encode(START, new StreamEvent.TextDelta("Hel"),
                new StreamEvent.Error("server_error", "upstream stream ended early"));

        List<SseEvent> tail = events.subList(events.size() - 2, events.size());
        assertThat(types(tail)).containsExactly("error", "response.failed");
        JsonObject error = new JsonObject(tail.get(0).data());
        assertThat(error.getString("code")).isEqualTo("server_error");
        assertThat(error.getString("message")).isEqualTo("upstream stream ended early");
        assertThat(error.getLong("sequence_number")).isEqualTo(events.size() - 2L);
        JsonObject failed = new JsonObject(tail.get(1).data()).getJsonObject("response");
        assertThat(failed.getString("status")).isEqualTo("failed");
        assertThat(failed.getJsonObject("error").getString("message")).isEqualTo("upstream stream ended early");
    }

    @Test
    void theErrorEventCarriesTheErrorAtTopLevelAndNestedAsOpenAiSendsIt() {
        JsonObject error = new JsonObject(ResponsesStreamEncoder.errorEvent("timeout", "idle for 75 s", 41).data());

        assertThat(error.getString("type")).isEqualTo("error");
        assertThat(error.getLong("sequence_number")).isEqualTo(41L);
        assertThat(error.getString("code")).isEqualTo("timeout");
        assertThat(error.getString("message")).isEqualTo("idle for 75 s");
        assertThat(error.getJsonObject("error").getString("code")).isEqualTo("timeout");
        assertThat(error.getJsonObject("error").getString("message")).isEqualTo("idle for 75 s");
    }

    @Test
    void aFailureBeforeTheStartIsOneErrorEvent() {
        List<SseEvent> events = encode(new StreamEvent.Error("timeout", "no first token in 10 s"));

        assertThat(types(events)).containsExactly("error");
        assertThat(new JsonObject(events.get(0).data()).getLong("sequence_number")).isZero();
    }

    @Test
    void argumentsOfAToolCallThatIsNoLongerOpenCannotBeEncoded() {
        encode(START, new StreamEvent.ToolCallStart(0, "a", "f"), new StreamEvent.ToolCallStart(1, "b", "g"));

        assertThatThrownBy(() -> encoder.encode(new StreamEvent.ToolCallDelta(0, "{}")))
                .isInstanceOf(UntranslatableException.class).hasMessageContaining("tool call 0");
    }
}
