package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.AlternatingTurns;
import io.agentfuse.gateway.provider.ClaudeMediaCount;
import io.agentfuse.gateway.provider.SamplingFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;


/**
 * Writes a neutral {@link ChatRequest} as an Anthropic Messages request body.
 *
 * <p>Anthropic's rules are enforced here: {@code max_tokens} is required (default
 * {@value #DEFAULT_MAX_TOKENS} when the caller gave none, which the router raises to what the step's
 * model writes when it knows it: {@code pipeline.StepOutputLimit}); consecutive messages of one role are
 * merged into one turn, with tool results first in a user turn; empty text blocks are dropped, and a
 * turn they leave empty makes the request untranslatable (Anthropic refuses it; only a final
 * assistant turn, an empty prefill, is dropped: {@link AlternatingTurns}); tool-call arguments must be
 * a JSON object (an empty string counts as {@code {}}), else the request is untranslatable; so is a request of more images and documents than
 * the Messages API takes ({@link AnthropicMedia}). A message read from an Anthropic caller is written
 * as it came (a compacted or continued request of the caller's own dialect loses no field of it).
 *
 * <p>Stateless and thread-safe.
 * {@code JsonObject body = AnthropicRequestWriter.write(request, "claude-haiku-4-5");}
 */
public final class AnthropicRequestWriter {

    /** The {@code max_tokens} sent when the caller set no limit. */
    public static final int DEFAULT_MAX_TOKENS = 4096;

    private AnthropicRequestWriter() {
    }

    /**
     * {@link #write(ChatRequest, String, long)} for a model whose window is not known: its media are held
     * to the limits of a model of the smaller window, the stricter.
     */
    public static JsonObject write(ChatRequest request, String model) {
        return write(request, model, ClaudeMediaCount.SMALL_WINDOW);
    }

    /**
     * The body for {@code model}, of a window of {@code contextWindow} tokens (which decides how many
     * images and document pages it takes).
     *
     * @throws UntranslatableException when a message has no content, a tool call's arguments are not a JSON
     *                                 object, or the request
     *                                 holds more images and documents than Anthropic takes
     */
    public static JsonObject write(ChatRequest request, String model, long contextWindow) {
        Sampling sampling = SamplingFields.forClaude(request.sampling());
        JsonObject body = new JsonObject().put("model", model)
                .put("max_tokens", sampling.maxTokens() != null ? sampling.maxTokens() : DEFAULT_MAX_TOKENS);
        if (request.system() != null && !request.system().isBlank()) {
            body.put("system", request.system());
        }
        AnthropicMedia media = new AnthropicMedia(contextWindow);
        body.put("messages", AlternatingTurns.write(request, AnthropicDialect.INSTANCE, "Anthropic", part -> block(part, media)));
        writeTools(request, body);
        SamplingFields.put(body, sampling, "top_p", "stop_sequences");
        if (request.stream()) {
            body.put("stream", true);
        }
        if (request.endUser() != null) {
            body.put("metadata", new JsonObject().put("user_id", request.endUser()));
        }
        return body;
    }

    private static JsonObject block(ContentPart part, AnthropicMedia media) {
        if (part instanceof ContentPart.Text text) {
            return text.text().isEmpty() ? null : new JsonObject().put("type", "text").put("text", text.text());
        }
        if (part instanceof ContentPart.Image image) {
            media.image(image.source());
            return new JsonObject().put("type", "image").put("source", source(image.source()));
        }
        if (part instanceof ContentPart.Document document) {
            media.document(document.source());
            JsonObject block = new JsonObject().put("type", "document").put("source", source(document.source()));
            return document.title() == null ? block : block.put("title", document.title());
        }
        if (part instanceof ContentPart.ToolCall call) {
            return new JsonObject().put("type", "tool_use").put("id", call.id()).put("name", call.name())
                    .put("input", call.argumentsAsObject());
        }
        if (part instanceof ContentPart.Opaque opaque) {
            return new JsonObject(opaque.json()); // only ever parsed from this dialect
        }
        ContentPart.ToolResult result = (ContentPart.ToolResult) part;
        JsonObject block = new JsonObject().put("type", "tool_result").put("tool_use_id", result.toolCallId())
                .put("content", toolResultContent(result, media));
        return result.isError() ? block.put("is_error", true) : block;
    }

    /** The text alone as a string; with attachments, blocks: the text's, then each attachment's. */
    private static Object toolResultContent(ContentPart.ToolResult result, AnthropicMedia media) {
        if (result.attachments().isEmpty()) {
            return result.content();
        }
        JsonArray blocks = new JsonArray();
        JsonObject text = block(new ContentPart.Text(result.content()), media);
        if (text != null) {
            blocks.add(text);
        }
        for (ContentPart attachment : result.attachments()) {
            blocks.add(block(attachment, media));
        }
        return blocks;
    }

    /** A {@code base64} source for inline media (the base64 as the caller gave it, or cut out of its data URL), else a {@code url} source. */
    private static JsonObject source(MediaSource media) {
        MediaSource.Inline data = media.inline();
        if (data == null) {
            return new JsonObject().put("type", "url").put("url", media.url());
        }
        return new JsonObject().put("type", "base64").put("media_type", data.mediaType()).put("data", data.base64());
    }

    private static void writeTools(ChatRequest request, JsonObject body) {
        if (request.tools().isEmpty()) {
            return;
        }
        JsonArray tools = new JsonArray();
        for (ToolDefinition tool : request.tools()) {
            JsonObject out = new JsonObject().put("name", tool.name());
            if (tool.description() != null) {
                out.put("description", tool.description());
            }
            tools.add(out.put("input_schema", tool.parameters()));
        }
        body.put("tools", tools);
        ToolChoice choice = request.toolChoice();
        if (choice == null) {
            return;
        }
        JsonObject out = new JsonObject().put("type", switch (choice.mode()) {
            case AUTO -> "auto";
            case REQUIRED -> "any";
            case NONE -> "none";
            case TOOL -> "tool";
        });
        if (choice.name() != null) {
            out.put("name", choice.name());
        }
        if (!choice.parallel() && choice.mode() != ToolChoice.Mode.NONE) {
            out.put("disable_parallel_tool_use", true);
        }
        body.put("tool_choice", out);
    }
}
