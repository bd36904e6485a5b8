package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The one place that writes the Responses API's {@code response} object and its output items,
 * for the complete answer ({@link ResponsesResponseCodec}) and for every event of a stream
 * ({@link ResponsesStreamEncoder}), and that maps the neutral {@link FinishReason} to and from
 * the Responses {@code status}:
 *
 * <table>
 *   <caption>finish reasons</caption>
 *   <tr><th>neutral</th><th>{@code status}</th><th>{@code incomplete_details.reason}</th></tr>
 *   <tr><td>STOP, STOP_SEQUENCE</td><td>completed</td><td>–</td></tr>
 *   <tr><td>TOOL_CALLS</td><td>completed (with {@code function_call} items)</td><td>–</td></tr>
 *   <tr><td>LENGTH</td><td>incomplete</td><td>max_output_tokens</td></tr>
 *   <tr><td>CONTENT_FILTER</td><td>incomplete</td><td>content_filter</td></tr>
 * </table>
 *
 * <p>The request-echo fields of the object ({@code instructions}, {@code tools},
 * {@code tool_choice}, {@code temperature}, ...) are copied from the caller's Responses request
 * when there is one, else the API's defaults. Stateless and thread-safe.
 */
final class ResponseEnvelope {

    /** The request fields a response object repeats. */
    private static final List<String> ECHOED = List.of("instructions", "max_output_tokens", "metadata",
            "parallel_tool_calls", "reasoning", "temperature", "text", "tool_choice", "tools", "top_p", "user");

    private ResponseEnvelope() {
    }

    /**
     * The fields of a Responses request that its response objects repeat, copied — without the
     * conversation, which can be large and is never repeated. {@code null} gives an empty object.
     */
    static JsonObject echo(JsonObject request) {
        JsonObject echo = new JsonObject();
        if (request != null) {
            for (String field : ECHOED) {
                Object value = request.getValue(field);
                if (value != null) {
                    echo.put(field, value instanceof JsonObject o ? o.copy() : value instanceof JsonArray a ? a.copy() : value);
                }
            }
        }
        return echo;
    }

    /** A Responses id for an upstream answer id ({@code msg_01…} becomes {@code resp_msg_01…}). */
    static String responseId(String upstreamId) {
        String id = upstreamId == null || upstreamId.isEmpty() ? "unknown" : upstreamId;
        return id.startsWith("resp_") ? id : "resp_" + id;
    }

    /** The id of output item {@code outputIndex}: {@code msg_…} for messages, {@code fc_…} for calls. */
    static String itemId(String prefix, String responseId, int outputIndex) {
        return prefix + "_" + responseId.substring("resp_".length()) + "_" + outputIndex;
    }

    /** The {@code status} for an answer that ended for {@code reason}. */
    static String status(FinishReason reason) {
        return reason == FinishReason.LENGTH || reason == FinishReason.CONTENT_FILTER ? "incomplete" : "completed";
    }

    /** The {@code incomplete_details} for {@code reason}, or {@code null} when the answer is complete. */
    static JsonObject incompleteDetails(FinishReason reason) {
        return switch (reason) {
            case LENGTH -> new JsonObject().put("reason", "max_output_tokens");
            case CONTENT_FILTER -> new JsonObject().put("reason", "content_filter");
            default -> null;
        };
    }

    /** The neutral reason of a {@code completed} or {@code incomplete} answer. */
    static FinishReason finishReason(String status, String incompleteReason, boolean hasToolCalls) {
        if ("incomplete".equals(status)) {
            return "content_filter".equals(incompleteReason) ? FinishReason.CONTENT_FILTER : FinishReason.LENGTH;
        }
        return hasToolCalls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
    }

    /**
     * A {@code response} object.
     *
     * @param usage the tokens, or {@code null} while the answer is running
     * @param echo  the caller's settings to repeat, from {@link #echo}
     */
    static JsonObject response(String id, String model, long createdAt, String status, JsonArray output,
                               Usage usage, JsonObject echo) {
        return new JsonObject()
                .put("id", id)
                .put("object", "response")
                .put("created_at", createdAt)
                .put("status", status)
                .put("background", false)
                .put("error", null)
                .put("incomplete_details", null)
                .put("instructions", echo.getValue("instructions"))
                .put("max_output_tokens", echo.getValue("max_output_tokens"))
                .put("metadata", orDefault(echo, "metadata", new JsonObject()))
                .put("model", model)
                .put("output", output)
                .put("parallel_tool_calls", orDefault(echo, "parallel_tool_calls", true))
                .put("previous_response_id", null)
                .put("reasoning", orDefault(echo, "reasoning", new JsonObject().put("effort", null).put("summary", null)))
                .put("store", false)
                .put("temperature", orDefault(echo, "temperature", 1.0))
                .put("text", orDefault(echo, "text", new JsonObject().put("format", new JsonObject().put("type", "text"))))
                .put("tool_choice", orDefault(echo, "tool_choice", "auto"))
                .put("tools", orDefault(echo, "tools", new JsonArray()))
                .put("top_p", orDefault(echo, "top_p", 1.0))
                .put("truncation", "disabled")
                .put("usage", usage == null ? null : usageJson(usage))
                .put("user", echo.getValue("user"));
    }

    /** An assistant {@code message} item. */
    static JsonObject messageItem(String id, String status, JsonArray content) {
        return new JsonObject().put("id", id).put("type", "message").put("status", status).put("role", "assistant")
                .put("content", content);
    }

    /** An {@code output_text} content part. */
    static JsonObject textPart(String text) {
        return new JsonObject().put("type", "output_text").put("text", text).put("annotations", new JsonArray())
                .put("logprobs", new JsonArray());
    }

    /** A {@code function_call} item; {@code callId} is what the caller answers with {@code function_call_output}. */
    static JsonObject functionCallItem(String id, String status, String callId, String name, String arguments) {
        return functionCallItem(id, status, callId, name, arguments, ToolNamespaces.NONE);
    }

    /** A {@code function_call} item whose flattened {@code name} names its namespace again, by {@code namespaces}. */
    static JsonObject functionCallItem(String id, String status, String callId, String name, String arguments,
                                       ToolNamespaces namespaces) {
        JsonObject item = new JsonObject().put("id", id).put("type", "function_call").put("status", status)
                .put("call_id", callId);
        return namespaces.writeName(item, name).put("arguments", arguments);
    }

    /** The Responses {@code usage} object of {@code usage}, its cached input in {@code input_tokens_details}. */
    static JsonObject usageJson(Usage usage) {
        return new JsonObject()
                .put("input_tokens", usage.inputTokens())
                .put("input_tokens_details", new JsonObject().put("cached_tokens", usage.cached().reads())
                        .put("cache_write_tokens", usage.cached().allWrites()))
                .put("output_tokens", usage.outputTokens())
                .put("output_tokens_details", new JsonObject().put("reasoning_tokens", 0))
                .put("total_tokens", usage.total());
    }

    private static Object orDefault(JsonObject json, String field, Object fallback) {
        Object value = json.getValue(field);
        return value == null ? fallback : value;
    }
}
