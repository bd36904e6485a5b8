package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Answers {@code :countTokens} for the Gemini and Vertex mocks: {@code {"totalTokens": n}} with the
 * step's {@code inputTokens}, errors in Google's shape. It never streams. Stateless and thread-safe.
 */
final class GeminiCountTokensMockDialect implements MockDialect {

    @Override
    public String nextId() {
        return "";
    }

    @Override
    public JsonObject success(MockStep step, String model) {
        return new JsonObject().put("totalTokens", step.inputTokens()).put("promptTokensDetails", new JsonArray()
                .add(new JsonObject().put("modality", "TEXT").put("tokenCount", step.inputTokens())));
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
        return List.of();
    }

    @Override
    public List<MockEvent> toolCalls(MockStep step, StreamIds ids) {
        return List.of();
    }

    @Override
    public List<MockEvent> closing(MockStep step, StreamIds ids) {
        return List.of();
    }
}
