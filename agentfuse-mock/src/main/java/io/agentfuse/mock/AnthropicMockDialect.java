package io.agentfuse.mock;

import io.agentfuse.mock.MockStep.MockToolCall;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes Anthropic Messages answers: {@code message} objects, the named-event stream
 * ({@code message_start}, {@code content_block_start}, {@code ping}, {@code content_block_delta},
 * {@code content_block_stop}, {@code message_delta}, {@code message_stop}) and
 * {@code {"type": "error", "error": {"type", "message"}}} errors, including 529
 * {@code overloaded_error}. Thread-safe.
 */
final class AnthropicMockDialect implements MockDialect {

    private final AtomicLong ids = new AtomicLong();

    @Override
    public String nextId() {
        return "msg_mock" + ids.incrementAndGet();
    }

    @Override
    public Map<String, String> requestIdHeaders() {
        return Map.of("request-id", MockDialect.requestId());
    }

    @Override
    public JsonObject success(MockStep step, String model) {
        JsonArray content = new JsonArray();
        if (step.toolCalls().isEmpty() || !step.text().isEmpty()) {
            content.add(new JsonObject().put("type", "text").put("text", step.text()));
        }
        step.toolCalls().forEach(call -> content.add(toolUse(call, call.arguments())));
        return new JsonObject()
                .put("id", nextId())
                .put("type", "message")
                .put("role", "assistant")
                .put("model", model)
                .put("content", content)
                .put("stop_reason", stopReason(step))
                .put("stop_sequence", null)
                .put("usage", usage(step).put("output_tokens", step.effectiveOutputTokens()));
    }

    /**
     * A {@code usage} object's input counts, as Anthropic writes them: {@code input_tokens} the input the
     * cache did not serve, beside the cache's reads and writes (when the step has some).
     */
    private static JsonObject usage(MockStep step) {
        if (step.cacheReadTokens() == 0 && step.cacheWriteTokens() == 0) {
            return new JsonObject().put("input_tokens", step.inputTokens());
        }
        return new JsonObject().put("input_tokens", step.inputTokens() - step.cacheReadTokens() - step.cacheWriteTokens())
                .put("cache_creation_input_tokens", step.cacheWriteTokens())
                .put("cache_read_input_tokens", step.cacheReadTokens())
                .put("cache_creation", new JsonObject().put("ephemeral_5m_input_tokens", step.cacheWriteTokens())
                        .put("ephemeral_1h_input_tokens", 0));
    }

    /**
     * A {@code message_delta}'s usage as the API writes it now: the cumulative counts, the input's
     * (and the cache's, without the {@code cache_creation} split) repeated beside the output's.
     */
    private static JsonObject deltaUsage(MockStep step) {
        JsonObject usage = usage(step).put("output_tokens", step.effectiveOutputTokens());
        usage.remove("cache_creation");
        return usage;
    }

    @Override
    public JsonObject error(int status, String errorType) {
        if (errorType == null) {
            return error(status);
        }
        JsonObject body = error(status);
        body.getJsonObject("error").put("type", errorType);
        return body;
    }

    @Override
    public List<MockEvent> streamError(int status, String errorType, StreamIds ids) {
        return List.of(MockEvent.named("error", error(status, errorType).encode()));
    }

    /** Anthropic's 404 {@code not_found_error} for a model name it does not serve ({@link AnthropicModelCheck}). */
    @Override
    public JsonObject unknownModel(JsonObject body) {
        return notFound(AnthropicModelCheck.problem(body.getValue("model") instanceof String model ? model : null));
    }

    /**
     * As {@link #refusal(JsonObject)}, then a prompt longer than the model's window, which the 1M beta
     * of {@code anthropic-beta} widens for the models that take it ({@link AnthropicPromptCheck}).
     */
    @Override
    public JsonObject refusal(JsonObject body, MultiMap headers) {
        JsonObject refused = refusal(body);
        if (refused != null) {
            return refused;
        }
        String tooLong = AnthropicPromptCheck.problem(body, body.getValue("model") instanceof String model ? model : null,
                String.join(",", headers.getAll("anthropic-beta")));
        return tooLong == null ? null : invalidRequest(tooLong);
    }

    /** Anthropic's 400 {@code invalid_request_error} with {@code message}. */
    private JsonObject invalidRequest(String message) {
        JsonObject refused = error(400);
        refused.getJsonObject("error").put("message", message);
        return refused;
    }

    /**
     * The Messages API refuses a {@code max_tokens} above the model's output limit ({@link OutputLimitCheck}),
     * {@code temperature} with {@code top_p} for the newer models ({@link AnthropicSamplingCheck}),
     * empty content ({@link AnthropicContentCheck}), more images and document pages than the model takes
     * ({@link AnthropicMediaCheck}),
     * a tool-use turn without its thinking when thinking is on a fixed budget ({@link AnthropicThinkingCheck}),
     * and a final assistant turn (a prefill) that ends with whitespace.
     */
    @Override
    public JsonObject refusal(JsonObject body) {
        String tooLong = OutputLimitCheck.anthropic(body);
        if (tooLong != null) {
            return invalidRequest(tooLong);
        }
        String sampling = AnthropicSamplingCheck.problem(body);
        if (sampling != null) {
            return invalidRequest(sampling);
        }
        JsonArray messages = body.getValue("messages") instanceof JsonArray list ? list : new JsonArray();
        String empty = body.getValue("messages") instanceof JsonArray ? AnthropicContentCheck.problem(messages) : null;
        if (empty != null) {
            return invalidRequest(empty);
        }
        String media = AnthropicMediaCheck.problem(messages, body.getValue("model") instanceof String model ? model : null);
        if (media != null) {
            JsonObject refused = error(400);
            refused.getJsonObject("error").put("message", media);
            return refused;
        }
        String unthought = AnthropicThinkingCheck.problem(body, messages);
        if (unthought != null) {
            return invalidRequest(unthought);
        }
        Object last = messages.isEmpty() ? null : messages.getValue(messages.size() - 1);
        if (!(last instanceof JsonObject turn) || !"assistant".equals(turn.getString("role"))) {
            return null;
        }
        Object content = turn.getValue("content");
        if (content instanceof JsonArray blocks && !blocks.isEmpty() && blocks.getValue(blocks.size() - 1) instanceof JsonObject block) {
            content = block.getValue("text");
        }
        if (!(content instanceof String text) || text.isEmpty() || !Character.isWhitespace(text.charAt(text.length() - 1))) {
            return null;
        }
        JsonObject refused = error(400);
        refused.getJsonObject("error").put("message", "messages: final assistant content cannot end with trailing whitespace");
        return refused;
    }

    @Override
    public JsonObject missingKey(MultiMap headers) {
        return ApiKeyCheck.anthropic(headers);
    }

    @Override
    public JsonObject error(int status) {
        String type = switch (status) {
            case 400 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
        String message = switch (type) {
            case "overloaded_error" -> "Overloaded";
            case "rate_limit_error" -> "Number of requests has exceeded your rate limit. Please try again later.";
            case "api_error" -> "Internal server error";
            default -> "Mock error for status " + status + ".";
        };
        return new JsonObject().put("type", "error")
                .put("error", new JsonObject().put("type", type).put("message", message));
    }

    @Override
    public List<MockEvent> opening(MockStep step, String model, StreamIds ids) {
        JsonObject message = new JsonObject().put("id", ids.id()).put("type", "message").put("role", "assistant")
                .put("model", ids.model()).put("content", new JsonArray())
                .put("stop_reason", null).put("stop_sequence", null)
                .put("usage", usage(step).put("output_tokens", 1));
        return List.of(
                event("message_start", new JsonObject().put("message", message)),
                event("content_block_start", new JsonObject().put("index", 0)
                        .put("content_block", new JsonObject().put("type", "text").put("text", ""))),
                event("ping", new JsonObject()));
    }

    @Override
    public List<MockEvent> text(String piece, StreamIds ids) {
        return List.of(event("content_block_delta", new JsonObject().put("index", 0)
                .put("delta", new JsonObject().put("type", "text_delta").put("text", piece))));
    }

    @Override
    public List<MockEvent> toolCalls(MockStep step, StreamIds ids) {
        if (step.toolCalls().isEmpty()) {
            return List.of();
        }
        List<MockEvent> events = new ArrayList<>();
        events.add(blockStop(0));
        for (int i = 0; i < step.toolCalls().size(); i++) {
            MockToolCall call = step.toolCalls().get(i);
            int index = i + 1;
            events.add(event("content_block_start", new JsonObject().put("index", index)
                    .put("content_block", toolUse(call, new JsonObject()))));
            String arguments = call.arguments().encode();
            int half = arguments.length() / 2;
            for (String part : new String[] {arguments.substring(0, half), arguments.substring(half)}) {
                events.add(event("content_block_delta", new JsonObject().put("index", index)
                        .put("delta", new JsonObject().put("type", "input_json_delta").put("partial_json", part))));
            }
            events.add(blockStop(index));
        }
        return events;
    }

    @Override
    public List<MockEvent> closing(MockStep step, StreamIds ids) {
        List<MockEvent> events = new ArrayList<>();
        if (step.toolCalls().isEmpty()) {
            events.add(blockStop(0));
        }
        events.add(event("message_delta", new JsonObject()
                .put("delta", new JsonObject().put("stop_reason", stopReason(step)).put("stop_sequence", null))
                .put("usage", deltaUsage(step))));
        events.add(event("message_stop", new JsonObject()));
        return events;
    }

    private static JsonObject toolUse(MockToolCall call, JsonObject input) {
        return new JsonObject().put("type", "tool_use").put("id", call.id()).put("name", call.name()).put("input", input);
    }

    private static MockEvent blockStop(int index) {
        return event("content_block_stop", new JsonObject().put("index", index));
    }

    private static MockEvent event(String type, JsonObject data) {
        JsonObject withType = new JsonObject().put("type", type).mergeIn(data);
        return MockEvent.named(type, withType.encode());
    }

    private static String stopReason(MockStep step) {
        return switch (step.effectiveFinishReason()) {
            case "length" -> "max_tokens";
            case "tool_calls" -> "tool_use";
            case "stop_sequence" -> "stop_sequence";
            case "content_filter" -> "refusal";
            default -> "end_turn";
        };
    }
}
