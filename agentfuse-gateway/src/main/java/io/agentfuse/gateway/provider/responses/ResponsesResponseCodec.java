package io.agentfuse.gateway.provider.responses;

import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes the OpenAI Responses API's complete {@code response} object.
 *
 * <p>Writing (an answer translated from another dialect for a Responses caller): text becomes one
 * assistant {@code message} item with one {@code output_text} part per text piece, each tool call
 * a {@code function_call} item whose {@code call_id} is the neutral call id; the finish reason
 * becomes {@code status} and {@code incomplete_details} (see {@link ResponseEnvelope}).
 *
 * <p>Reading is <em>strict</em>, unlike the Chat Completions codec: an answer is either valid or
 * a {@link MalformedAnswerException} saying what was wrong — empty, not JSON or truncated, not an
 * object, not a {@code response}, a status that is not a finished answer ({@code failed},
 * {@code in_progress}, ...), or a field of the wrong type. {@code reasoning} items and the items
 * of built-in tools have no neutral form and are skipped; refusals read as text.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * ChatResponse answer = ResponsesResponseCodec.read(upstreamBody.toString());
 * JsonObject forClient = ResponsesResponseCodec.write(anthropicAnswer, request.original());
 * }</pre>
 */
public final class ResponsesResponseCodec {

    private ResponsesResponseCodec() {
    }

    /**
     * Whether {@code body} is a provider's acceptance of a {@code background: true} request: a
     * {@code response} with an id, {@code background: true} and status {@code queued} or
     * {@code in_progress}. That is the whole answer such a request gets (the caller fetches the
     * result later), so it is a success to pass on, not an unfinished answer; it has no neutral form.
     */
    public static boolean isAcceptedInBackground(JsonObject body) {
        Object status = body.getValue("status");
        return "response".equals(body.getValue("object")) && body.getValue("id") instanceof String
                && Boolean.TRUE.equals(body.getValue("background")) && ("queued".equals(status) || "in_progress".equals(status));
    }

    /**
     * The neutral form of a {@code response} body as received.
     *
     * @throws MalformedAnswerException when the body is not a complete Responses answer
     */
    public static ChatResponse read(Buffer body) {
        return read(body == null ? "" : body.toString());
    }

    /**
     * The neutral form of a {@code response} body as received.
     *
     * @throws MalformedAnswerException when the body is not a complete Responses answer
     */
    public static ChatResponse read(String body) {
        if (body == null || body.isBlank()) {
            throw new MalformedAnswerException("the upstream answer is empty");
        }
        Object parsed;
        try {
            parsed = Json.decodeValue(body);
        } catch (DecodeException e) {
            throw new MalformedAnswerException("the upstream answer is not JSON, or is truncated");
        }
        if (!(parsed instanceof JsonObject json)) {
            throw new MalformedAnswerException("the upstream answer must be a JSON object, but was "
                    + AnswerReader.describe(parsed));
        }
        return read(json);
    }

    /**
     * The neutral form of a parsed {@code response} object.
     *
     * @throws MalformedAnswerException when it is not a complete Responses answer
     */
    public static ChatResponse read(JsonObject body) {
        AnswerReader root = AnswerReader.root(body);
        String object = root.optionalString("object");
        if (!"response".equals(object)) {
            throw root.problem("object", "must be \"response\", but was " + AnswerReader.describe(object));
        }
        String id = root.string("id");
        String status = root.string("status");
        if (!"completed".equals(status) && !"incomplete".equals(status)) {
            AnswerReader error = root.optionalObject("error");
            String why = error == null ? "" : ": " + error.optionalString("message");
            throw root.problem("status", "is \"" + status + "\", not a finished answer" + why);
        }
        List<ContentPart> content = new ArrayList<>();
        boolean hasToolCalls = readOutput(root, content);
        AnswerReader incomplete = root.optionalObject("incomplete_details");
        FinishReason reason = ResponseEnvelope.finishReason(status,
                incomplete == null ? null : incomplete.optionalString("reason"), hasToolCalls);
        Object created = body.getValue("created_at");
        long createdAt = created instanceof Number number ? number.longValue() : root.count("created_at");
        return new ChatResponse(id, root.optionalString("model") == null ? "" : root.optionalString("model"),
                createdAt, content, reason, null, usage(root.optionalObject("usage")));
    }

    /**
     * The {@code response} body of {@code response}.
     *
     * @param request the caller's Responses request, whose settings the object echoes, or {@code null}
     */
    public static JsonObject write(ChatResponse response, JsonObject request) {
        return write(response, request, ToolNamespaces.NONE);
    }

    /** The {@code response} body of {@code response}, its calls of flattened namespace functions named as {@code namespaces} says. */
    static JsonObject write(ChatResponse response, JsonObject request, ToolNamespaces namespaces) {
        String id = ResponseEnvelope.responseId(response.id());
        JsonArray output = new JsonArray();
        JsonArray texts = new JsonArray();
        for (ContentPart part : response.content()) {
            if (part instanceof ContentPart.Text text) {
                texts.add(ResponseEnvelope.textPart(text.text()));
            }
        }
        if (!texts.isEmpty()) {
            output.add(ResponseEnvelope.messageItem(ResponseEnvelope.itemId("msg", id, 0), "completed", texts));
        }
        for (ContentPart part : response.content()) {
            if (part instanceof ContentPart.ToolCall call) {
                output.add(ResponseEnvelope.functionCallItem(ResponseEnvelope.itemId("fc", id, output.size()),
                        "completed", call.id(), call.name(), call.arguments(), namespaces));
            }
        }
        JsonObject body = ResponseEnvelope.response(id, response.model(), response.created(),
                ResponseEnvelope.status(response.finishReason()), output, response.usage(), ResponseEnvelope.echo(request));
        return body.put("incomplete_details", ResponseEnvelope.incompleteDetails(response.finishReason()));
    }

    /**
     * The tokens of a Responses {@code usage} object ({@link Usage#ZERO} when absent);
     * {@code input_tokens} already counts cached tokens, which {@code input_tokens_details} tells:
     * {@code cached_tokens} read from the cache (and {@code cache_write_tokens} written to it, where
     * a provider tells them).
     *
     * @throws MalformedAnswerException when a count is not a number {@code >= 0}; one past a
     *         {@code long}'s range is read as every dialect reads it ({@link Usage#count})
     */
    public static Usage usage(JsonObject usage) {
        return usage == null ? Usage.ZERO : usage(AnswerReader.root(usage));
    }

    /** The Responses {@code usage} object of {@code usage}. */
    public static JsonObject usageJson(Usage usage) {
        return ResponseEnvelope.usageJson(usage);
    }

    static Usage usage(AnswerReader usage) {
        if (usage == null) {
            return Usage.ZERO;
        }
        AnswerReader details = usage.optionalObject("input_tokens_details");
        return Usage.of(usage.tokens("input_tokens"), usage.tokens("output_tokens"), details == null ? CachedTokens.NONE
                : Usage.cached(details.tokens("cached_tokens"), details.tokens("cache_write_tokens"), 0));
    }

    /** Reads the output items into {@code content}; whether any was a function call. */
    private static boolean readOutput(AnswerReader root, List<ContentPart> content) {
        JsonArray output = root.array("output");
        boolean hasToolCalls = false;
        for (int i = 0; i < output.size(); i++) {
            AnswerReader item = root.objectAt("output", i);
            switch (item.string("type")) {
                case "message" -> readMessage(item, content);
                case "function_call" -> {
                    content.add(toolCall(item));
                    hasToolCalls = true;
                }
                default -> {
                    // reasoning and built-in tool items (web_search_call, ...) have no neutral form.
                }
            }
        }
        return hasToolCalls;
    }

    static ContentPart.ToolCall toolCall(AnswerReader item) {
        return new ContentPart.ToolCall(item.string("call_id"), item.string("name"), item.string("arguments"));
    }

    private static void readMessage(AnswerReader item, List<ContentPart> content) {
        JsonArray parts = item.array("content");
        for (int j = 0; j < parts.size(); j++) {
            AnswerReader part = item.objectAt("content", j);
            String type = part.string("type");
            String text = switch (type) {
                case "output_text" -> part.string("text");
                case "refusal" -> part.string("refusal");
                default -> throw part.problem("type", "must be \"output_text\" or \"refusal\", but was \"" + type + "\"");
            };
            if (!text.isEmpty()) {
                content.add(new ContentPart.Text(text));
            }
        }
    }
}
