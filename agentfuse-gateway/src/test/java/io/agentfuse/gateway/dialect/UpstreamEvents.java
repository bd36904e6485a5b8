package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Upstream stream events as OpenAI and Anthropic write them, and the way the stream translator's tests
 * feed them through a {@link StreamTranslator} and read what comes out.
 */
final class UpstreamEvents {

    private UpstreamEvents() {
    }

    static SseEvent openAiChunk(JsonObject delta, String finishReason) {
        return SseEvent.data(new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("created", 1).put("model", "gpt-4o-mini")
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
                        .put("finish_reason", finishReason))).encode());
    }

    static SseEvent openAiUsage(int prompt, int completion) {
        return SseEvent.data(new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("choices", new JsonArray()).put("usage", new JsonObject().put("prompt_tokens", prompt)
                        .put("completion_tokens", completion).put("total_tokens", prompt + completion)).encode());
    }

    static SseEvent openAiToolDelta(int index, String id, String name, String arguments) {
        JsonObject call = new JsonObject().put("index", index).put("function", new JsonObject().put("arguments", arguments));
        if (id != null) {
            call.put("id", id).put("type", "function").getJsonObject("function").put("name", name);
        }
        return openAiChunk(new JsonObject().put("tool_calls", new JsonArray().add(call)), null);
    }

    static List<SseEvent> openAiTextStream() {
        return List.of(
                openAiChunk(new JsonObject().put("role", "assistant").put("content", ""), null),
                openAiChunk(new JsonObject().put("content", "Hel"), null),
                openAiChunk(new JsonObject().put("content", "lo"), null),
                openAiChunk(new JsonObject(), "stop"),
                openAiUsage(9, 2),
                SseEvent.DONE);
    }

    static SseEvent anthropicEvent(String type, JsonObject data) {
        return SseEvent.named(type, new JsonObject().put("type", type).mergeIn(data).encode());
    }

    static List<SseEvent> anthropicToolStream() {
        return List.of(
                anthropicEvent("message_start", new JsonObject().put("message", new JsonObject().put("id", "msg_1")
                        .put("model", "claude-haiku-4-5").put("usage", new JsonObject().put("input_tokens", 25).put("output_tokens", 1)))),
                anthropicEvent("content_block_start", new JsonObject().put("index", 0)
                        .put("content_block", new JsonObject().put("type", "text").put("text", ""))),
                anthropicEvent("ping", new JsonObject()),
                anthropicEvent("content_block_delta", new JsonObject().put("index", 0)
                        .put("delta", new JsonObject().put("type", "text_delta").put("text", "Checking."))),
                anthropicEvent("content_block_stop", new JsonObject().put("index", 0)),
                anthropicEvent("content_block_start", new JsonObject().put("index", 1).put("content_block", new JsonObject()
                        .put("type", "tool_use").put("id", "toolu_1").put("name", "get_weather").put("input", new JsonObject()))),
                anthropicEvent("content_block_delta", new JsonObject().put("index", 1)
                        .put("delta", new JsonObject().put("type", "input_json_delta").put("partial_json", "{\"city\":"))),
                anthropicEvent("content_block_delta", new JsonObject().put("index", 1)
                        .put("delta", new JsonObject().put("type", "input_json_delta").put("partial_json", "\"Oslo\"}"))),
                anthropicEvent("content_block_stop", new JsonObject().put("index", 1)),
                anthropicEvent("message_delta", new JsonObject().put("delta", new JsonObject().put("stop_reason", "tool_use"))
                        .put("usage", new JsonObject().put("output_tokens", 17))),
                anthropicEvent("message_stop", new JsonObject()));
    }

    static List<SseEvent> feed(StreamTranslator translator, List<SseEvent> events) {
        List<SseEvent> out = new ArrayList<>();
        events.forEach(event -> out.addAll(translator.translate(event)));
        out.addAll(translator.end());
        return out;
    }

    static List<JsonObject> data(List<SseEvent> events) {
        return events.stream().filter(e -> !e.isDone()).map(e -> new JsonObject(e.data())).toList();
    }

    static SseEvent last(List<SseEvent> events) {
        return events.get(events.size() - 1);
    }
}
