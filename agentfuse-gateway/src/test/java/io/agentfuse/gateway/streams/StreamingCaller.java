package io.agentfuse.gateway.streams;

import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A caller of a streamed answer, in one of the gateway's dialects: its endpoint, and what it reads of a
 * stream of its dialect (the text, the start and finish events, the usage, how the stream ends).
 */
enum StreamingCaller {
    CHAT("/v1/chat/completions"), MESSAGES("/v1/messages"), RESPONSES("/v1/responses");

    final String path;

    StreamingCaller(String path) {
        this.path = path;
    }

    JsonObject request(String model) {
        JsonArray messages = new JsonArray().add(new JsonObject().put("role", "user").put("content", "Count to three"));
        return switch (this) {
            case CHAT -> new JsonObject().put("model", model).put("stream", true).put("messages", messages)
                    .put("stream_options", new JsonObject().put("include_usage", true));
            case MESSAGES -> new JsonObject().put("model", model).put("stream", true).put("max_tokens", 100)
                    .put("messages", messages);
            case RESPONSES -> new JsonObject().put("model", model).put("stream", true).put("input", "Count to three");
        };
    }

    /** The answer's text, piece by piece as the caller's SDK would join it. */
    String text(List<SseEvent> events) {
        StringBuilder text = new StringBuilder();
        for (SseEvent event : events) {
            JsonObject data = json(event);
            switch (this) {
                case CHAT -> {
                    JsonArray choices = data == null ? null : data.getJsonArray("choices");
                    if (choices != null && !choices.isEmpty()) {
                        text.append(choices.getJsonObject(0).getJsonObject("delta").getString("content", ""));
                    }
                }
                case MESSAGES -> {
                    if ("content_block_delta".equals(event.event())) {
                        text.append(data.getJsonObject("delta").getString("text", ""));
                    }
                }
                case RESPONSES -> {
                    if ("response.output_text.delta".equals(event.event())) {
                        text.append(data.getString("delta"));
                    }
                }
            }
        }
        return text.toString();
    }

    /** How many events begin an answer: OpenAI's role chunk, {@code message_start}, {@code response.created}. */
    long starts(List<SseEvent> events) {
        return switch (this) {
            case CHAT -> events.stream().map(StreamingCaller::json)
                    .filter(data -> data != null && data.getJsonArray("choices") != null && !data.getJsonArray("choices").isEmpty()
                            && data.getJsonArray("choices").getJsonObject(0).getJsonObject("delta").containsKey("role"))
                    .count();
            case MESSAGES -> events.stream().filter(event -> "message_start".equals(event.event())).count();
            case RESPONSES -> events.stream().filter(event -> "response.created".equals(event.event())).count();
        };
    }

    /** How many events finish an answer: a finish reason, {@code message_delta}, {@code response.completed}. */
    long finishes(List<SseEvent> events) {
        return switch (this) {
            case CHAT -> events.stream().map(StreamingCaller::json)
                    .filter(data -> data != null && data.getJsonArray("choices") != null && !data.getJsonArray("choices").isEmpty()
                            && data.getJsonArray("choices").getJsonObject(0).getValue("finish_reason") != null)
                    .count();
            case MESSAGES -> events.stream().filter(event -> "message_delta".equals(event.event())).count();
            case RESPONSES -> events.stream().filter(event -> "response.completed".equals(event.event())).count();
        };
    }

    /** The stream's last event, which ends it: {@code [DONE]}, {@code message_stop}, {@code response.completed}. */
    boolean endsComplete(List<SseEvent> events) {
        SseEvent last = events.get(events.size() - 1);
        return switch (this) {
            case CHAT -> last.isDone();
            case MESSAGES -> "message_stop".equals(last.event());
            case RESPONSES -> "response.completed".equals(last.event());
        };
    }

    /** The usage the stream reported at its end, as {input, output}. */
    long[] usage(List<SseEvent> events) {
        for (int i = events.size() - 1; i >= 0; i--) {
            JsonObject data = json(events.get(i));
            if (data == null) {
                continue;
            }
            switch (this) {
                case CHAT -> {
                    if (data.getValue("usage") instanceof JsonObject usage) {
                        return new long[] {usage.getLong("prompt_tokens"), usage.getLong("completion_tokens")};
                    }
                }
                case MESSAGES -> {
                    if ("message_delta".equals(events.get(i).event())) {
                        JsonObject usage = data.getJsonObject("usage");
                        return new long[] {usage.getLong("input_tokens"), usage.getLong("output_tokens")};
                    }
                }
                case RESPONSES -> {
                    if ("response.completed".equals(events.get(i).event())) {
                        JsonObject usage = data.getJsonObject("response").getJsonObject("usage");
                        return new long[] {usage.getLong("input_tokens"), usage.getLong("output_tokens")};
                    }
                }
            }
        }
        throw new AssertionError("no usage in the stream");
    }

    /** Whether the stream ends with the dialect's error (for Responses then {@code response.failed}). */
    boolean endsWithError(List<SseEvent> events) {
        SseEvent last = events.get(events.size() - 1);
        return switch (this) {
            case CHAT -> json(last) != null && json(last).containsKey("error");
            case MESSAGES -> "error".equals(last.event());
            case RESPONSES -> "response.failed".equals(last.event()) && "error".equals(events.get(events.size() - 2).event());
        };
    }

    /** The event's data as JSON, or null where it is not an object (such as {@code [DONE]}). */
    static JsonObject json(SseEvent event) {
        return event.data().startsWith("{") ? new JsonObject(event.data()) : null;
    }
}
