package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes Azure OpenAI answers: those of OpenAI's dialect ({@code chat.completion} or Responses), with
 * Azure's additions and Azure's errors. Chat completions carry {@code prompt_filter_results} and
 * per-choice {@code content_filter_results}, and a chat stream begins with Azure's chunk of empty
 * {@code choices} that only reports the prompt filter (a known trap for OpenAI clients). Errors are
 * Azure's: {@code {"error": {"code": "429", "message": "... Please retry after 1 second."}}} with a
 * {@code retry-after} header, 401 for a bad key, and the content filter's 400 ({@code errorType:
 * content_filter}, code {@code content_filter} with its {@code innererror}).
 *
 * <p>Thread-safe.
 */
final class AzureMockDialect implements MockDialect {

    private final MockDialect openAi;
    private final boolean chat;

    /** @param openAi the OpenAI dialect the answers are made in; {@code chat} when it is Chat Completions */
    AzureMockDialect(MockDialect openAi, boolean chat) {
        this.openAi = openAi;
        this.chat = chat;
    }

    @Override
    public String nextId() {
        return openAi.nextId();
    }

    @Override
    public Map<String, String> requestIdHeaders() {
        String id = java.util.UUID.randomUUID().toString();
        return Map.of("apim-request-id", id, "x-request-id", id);
    }

    @Override
    public JsonObject success(MockStep step, String model) {
        JsonObject answer = openAi.success(step, model);
        if (chat) {
            answer.put("prompt_filter_results", promptFilterResults());
            answer.getJsonArray("choices").forEach(choice -> ((JsonObject) choice).put("content_filter_results", filters(false)));
        }
        return answer;
    }

    @Override
    public JsonObject error(int status) {
        return error(status, null);
    }

    @Override
    public JsonObject error(int status, String errorType) {
        if ("content_filter".equals(errorType)) {
            return new JsonObject().put("error", new JsonObject()
                    .put("message", "The response was filtered due to the prompt triggering Azure OpenAI's content "
                            + "management policy. Please modify your prompt and retry.")
                    .put("type", null).put("param", "prompt").put("code", "content_filter").put("status", 400)
                    .put("innererror", new JsonObject().put("code", "ResponsibleAIPolicyViolation")
                            .put("content_filter_result", filters(true))));
        }
        String message = switch (status) {
            case 401 -> AzureMockRoutes.BAD_KEY;
            case 404 -> "The API deployment for this resource does not exist. If you created the deployment within the "
                    + "last 5 minutes, please wait a moment and try again.";
            case 429 -> "Requests to the ChatCompletions_Create Operation under Azure OpenAI API have exceeded token "
                    + "rate limit of your current AIServices S0 pricing tier. Please retry after 1 second.";
            case 500 -> "The server had an error processing your request.";
            case 503 -> "The service is temporarily unable to process your request. Please try again later.";
            default -> openAi.error(status).getJsonObject("error").getString("message");
        };
        String code = errorType != null ? errorType : status == 404 ? "DeploymentNotFound" : String.valueOf(status);
        return new JsonObject().put("error", new JsonObject().put("code", code).put("message", message));
    }

    @Override
    public Map<String, String> errorHeaders(int status, String errorType) {
        return status == 429 ? Map.of("retry-after", "1", "x-ratelimit-remaining-requests", "0") : Map.of();
    }

    @Override
    public List<MockEvent> streamError(int status, String errorType, StreamIds ids) {
        return openAi.streamError(status, errorType, ids);
    }

    @Override
    public List<MockEvent> opening(MockStep step, String model, StreamIds ids) {
        if (!chat) {
            return openAi.opening(step, model, ids);
        }
        List<MockEvent> events = new ArrayList<>();
        events.add(MockEvent.data(new JsonObject().put("choices", new JsonArray()).put("created", 0).put("id", "")
                .put("model", "").put("object", "").put("prompt_filter_results", promptFilterResults()).encode()));
        events.addAll(openAi.opening(step, model, ids));
        return events;
    }

    @Override
    public List<MockEvent> text(String piece, StreamIds ids) {
        return openAi.text(piece, ids);
    }

    @Override
    public List<MockEvent> toolCalls(MockStep step, StreamIds ids) {
        return openAi.toolCalls(step, ids);
    }

    @Override
    public List<MockEvent> closing(MockStep step, StreamIds ids) {
        return openAi.closing(step, ids);
    }

    private static JsonArray promptFilterResults() {
        return new JsonArray().add(new JsonObject().put("prompt_index", 0).put("content_filter_results", filters(false)));
    }

    private static JsonObject filters(boolean jailbreak) {
        JsonObject safe = new JsonObject().put("filtered", false).put("severity", "safe");
        JsonObject results = new JsonObject();
        for (String category : new String[] {"hate", "self_harm", "sexual", "violence"}) {
            results.put(category, safe.copy());
        }
        return jailbreak ? results.put("jailbreak", new JsonObject().put("filtered", true).put("detected", true)) : results;
    }
}
