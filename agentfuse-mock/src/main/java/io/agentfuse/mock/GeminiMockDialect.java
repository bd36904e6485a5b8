package io.agentfuse.mock;

import io.agentfuse.mock.MockStep.MockToolCall;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes Gemini {@code GenerateContentResponse}s, as the Gemini API and Gemini models on Vertex AI
 * send them: candidates of {@code parts} ({@code text}, {@code functionCall} with {@code args}),
 * {@code finishReason} ({@code STOP}, {@code MAX_TOKENS}, {@code SAFETY}), {@code usageMetadata}; a
 * stream is one {@code data:} event per response (lines ended by CRLF), the last one carrying the
 * finish reason and the usage, with no end marker; errors are Google's
 * ({@link GoogleErrors}), also inside a stream. Function calls carry no id: the Gemini API sends none.
 *
 * <p>Thread-safe.
 */
final class GeminiMockDialect implements MockDialect {

    private final AtomicLong ids = new AtomicLong();

    @Override
    public String nextId() {
        return "mock-gemini-" + ids.incrementAndGet();
    }

    @Override
    public JsonObject success(MockStep step, String model) {
        JsonArray parts = new JsonArray();
        if (step.toolCalls().isEmpty() || !step.text().isEmpty()) {
            parts.add(new JsonObject().put("text", step.text()));
        }
        step.toolCalls().forEach(call -> parts.add(functionCall(call)));
        return response(parts, finishReason(step), step, model, nextId(), true);
    }

    @Override
    public JsonObject error(int status) {
        return GoogleErrors.body(status, null);
    }

    @Override
    public JsonObject error(int status, String errorType) {
        return GoogleErrors.body(status, errorType);
    }

    @Override
    public List<MockEvent> opening(MockStep step, String model, StreamIds ids) {
        return List.of();
    }

    @Override
    public List<MockEvent> text(String piece, StreamIds ids) {
        if (piece.isEmpty()) {
            return List.of();
        }
        return List.of(MockEvent.data(chunk(new JsonArray().add(new JsonObject().put("text", piece)), null, null, ids).encode()));
    }

    @Override
    public List<MockEvent> toolCalls(MockStep step, StreamIds ids) {
        if (step.toolCalls().isEmpty()) {
            return List.of();
        }
        JsonArray parts = new JsonArray();
        step.toolCalls().forEach(call -> parts.add(functionCall(call)));
        return List.of(MockEvent.data(chunk(parts, null, null, ids).encode()));
    }

    @Override
    public List<MockEvent> closing(MockStep step, StreamIds ids) {
        return List.of(MockEvent.data(chunk(new JsonArray().add(new JsonObject().put("text", "")), finishReason(step), step, ids)
                .encode()));
    }

    @Override
    public Buffer frame(List<MockEvent> events) {
        Buffer frame = Buffer.buffer();
        events.forEach(event -> frame.appendString("data: " + event.data() + "\r\n\r\n"));
        return frame;
    }

    private static JsonObject chunk(JsonArray parts, String finishReason, MockStep step, StreamIds ids) {
        return response(parts, finishReason, step, ids.model(), ids.id(), false);
    }

    private static JsonObject response(JsonArray parts, String finishReason, MockStep step, String model, String id,
                                       boolean complete) {
        JsonObject candidate = new JsonObject()
                .put("content", new JsonObject().put("parts", parts).put("role", "model"));
        if (finishReason != null) {
            candidate.put("finishReason", finishReason);
        }
        candidate.put("index", 0);
        JsonObject response = new JsonObject().put("candidates", new JsonArray().add(candidate));
        if (step != null && (complete || finishReason != null)) {
            int output = step.effectiveOutputTokens();
            JsonObject usage = new JsonObject().put("promptTokenCount", step.inputTokens())
                    .put("candidatesTokenCount", output).put("totalTokenCount", step.inputTokens() + output);
            // promptTokenCount counts the cached content too, which cachedContentTokenCount tells apart.
            response.put("usageMetadata", step.cacheReadTokens() == 0 ? usage
                    : usage.put("cachedContentTokenCount", step.cacheReadTokens()));
        }
        return response.put("modelVersion", model).put("responseId", id);
    }

    private static JsonObject functionCall(MockToolCall call) {
        return new JsonObject().put("functionCall", new JsonObject().put("name", call.name()).put("args", call.arguments()));
    }

    private static String finishReason(MockStep step) {
        return switch (step.effectiveFinishReason()) {
            case "length" -> "MAX_TOKENS";
            case "content_filter" -> "SAFETY";
            default -> "STOP"; // Gemini ends an answer with function calls with STOP too
        };
    }
}
