package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes a neutral request as a Responses API body: the system prompt as {@code instructions};
 * user text, images and documents as {@code message} items with {@code input_text},
 * {@code input_image} and {@code input_file} parts; assistant text as {@code message} items with {@code output_text}; tool calls as
 * {@code function_call} items and their results as {@code function_call_output} items (a result's
 * images and documents as {@code input_image} and {@code input_file} parts of its output), in
 * conversation order; {@code function} tools, {@code tool_choice}, {@code parallel_tool_calls},
 * {@code max_output_tokens}, {@code temperature}, {@code top_p}, {@code stream} and {@code user}.
 * A tool result marked as an error gets an {@code "Error: "} prefix (the API has no error flag).
 * Stop sequences have no Responses equivalent and make the request untranslatable.
 *
 * <p>A caller of the Responses API itself goes through this writer only when the gateway rewrites its
 * conversation (compaction, continuation), and then each message it kept is written as the items it
 * came from; otherwise its body is forwarded as sent ({@link ResponsesDialect#sameDialectRequest}).
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * JsonObject body = ResponsesRequestWriter.write(request, "gpt-4.1-mini");
 * }</pre>
 */
public final class ResponsesRequestWriter {

    private ResponsesRequestWriter() {
    }

    /**
     * The Responses body of {@code request} for {@code model}.
     *
     * @throws UntranslatableException for stop sequences
     */
    public static JsonObject write(ChatRequest request, String model) {
        Sampling sampling = request.sampling();
        if (!sampling.stopSequences().isEmpty()) {
            throw new UntranslatableException("stop sequences (the Responses API has none)");
        }
        JsonObject body = new JsonObject().put("model", model);
        putIfPresent(body, "instructions", request.system());
        JsonArray input = new JsonArray();
        for (ChatMessage message : request.messages()) {
            List<JsonObject> origin = message.originIn(ResponsesDialect.INSTANCE);
            if (!origin.isEmpty()) {
                origin.forEach(input::add); // the caller's own items, reasoning and every field included
            } else if (message.role() == ChatMessage.Role.ASSISTANT) {
                assistant(message, input);
            } else {
                user(message, input);
            }
        }
        body.put("input", input);
        writeTools(request, body);
        putIfPresent(body, "max_output_tokens", sampling.maxTokens());
        putIfPresent(body, "temperature", sampling.temperature());
        putIfPresent(body, "top_p", sampling.topP());
        if (request.stream()) {
            body.put("stream", true);
        }
        putIfPresent(body, "user", request.endUser());
        return body;
    }

    private static void assistant(ChatMessage message, JsonArray input) {
        for (ContentPart part : message.content()) {
            if (part instanceof ContentPart.Text text) {
                input.add(new JsonObject().put("type", "message").put("role", "assistant").put("content",
                        new JsonArray().add(new JsonObject().put("type", "output_text").put("text", text.text()))));
            } else if (part instanceof ContentPart.ToolCall call) {
                input.add(new JsonObject().put("type", "function_call").put("call_id", call.id())
                        .put("name", call.name()).put("arguments", call.arguments()));
            }
        }
    }

    /** Tool results become their own items where they were; the text and images around them, user messages. */
    private static void user(ChatMessage message, JsonArray input) {
        List<JsonObject> pending = new ArrayList<>();
        for (ContentPart part : message.content()) {
            if (part instanceof ContentPart.ToolResult result) {
                flushUser(pending, input);
                input.add(new JsonObject().put("type", "function_call_output").put("call_id", result.toolCallId())
                        .put("output", output(result)));
            } else if (part instanceof ContentPart.Text text) {
                pending.add(inputText(text.text()));
            } else if (part instanceof ContentPart.Image || part instanceof ContentPart.Document) {
                pending.add(media(part));
            }
        }
        flushUser(pending, input);
    }

    /** The text alone as a string; with attachments, content parts: the text's, then each attachment's. */
    private static Object output(ContentPart.ToolResult result) {
        String text = result.flaggedText();
        if (result.attachments().isEmpty()) {
            return text;
        }
        JsonArray parts = new JsonArray();
        if (!text.isEmpty()) {
            parts.add(inputText(text));
        }
        for (ContentPart attachment : result.attachments()) {
            parts.add(attachment instanceof ContentPart.Opaque opaque ? new JsonObject(opaque.json()) // only ever parsed from this dialect
                    : media(attachment));
        }
        return parts;
    }

    private static JsonObject inputText(String text) {
        return new JsonObject().put("type", "input_text").put("text", text);
    }

    /** An {@code input_image}, or an {@code input_file} (by its data, with a file name, or by its URL). */
    private static JsonObject media(ContentPart part) {
        if (part instanceof ContentPart.Image image) {
            return new JsonObject().put("type", "input_image").put("image_url", image.source().url());
        }
        ContentPart.Document document = (ContentPart.Document) part;
        JsonObject file = new JsonObject().put("type", "input_file");
        if (!document.source().isData()) {
            return file.put("file_url", document.source().url());
        }
        return file.put("filename", document.title() == null ? "document.pdf" : document.title())
                .put("file_data", document.source().url());
    }

    private static void flushUser(List<JsonObject> parts, JsonArray input) {
        if (!parts.isEmpty()) {
            input.add(new JsonObject().put("type", "message").put("role", "user").put("content", new JsonArray(new ArrayList<>(parts))));
            parts.clear();
        }
    }

    private static void writeTools(ChatRequest request, JsonObject body) {
        if (request.tools().isEmpty()) {
            return;
        }
        JsonArray tools = new JsonArray();
        for (ToolDefinition tool : request.tools()) {
            JsonObject function = new JsonObject().put("type", "function").put("name", tool.name());
            putIfPresent(function, "description", tool.description());
            tools.add(function.put("parameters", tool.parameters()));
        }
        body.put("tools", tools);
        ToolChoice choice = request.toolChoice();
        if (choice == null) {
            return;
        }
        body.put("tool_choice", switch (choice.mode()) {
            case AUTO -> "auto";
            case REQUIRED -> "required";
            case NONE -> "none";
            case TOOL -> new JsonObject().put("type", "function").put("name", choice.name());
        });
        if (!choice.parallel()) {
            body.put("parallel_tool_calls", false);
        }
    }

    private static void putIfPresent(JsonObject body, String field, Object value) {
        if (value != null) {
            body.put(field, value);
        }
    }
}
