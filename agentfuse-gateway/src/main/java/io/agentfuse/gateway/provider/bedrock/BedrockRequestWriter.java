package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.AlternatingTurns;
import io.agentfuse.gateway.provider.SamplingFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a neutral {@link ChatRequest} as an Amazon Bedrock Converse body: {@code messages} of
 * {@code user} and {@code assistant} turns with {@code text}, {@code image}, {@code toolUse} and
 * {@code toolResult} blocks (consecutive turns of one role merged, tool results first in a user turn,
 * blank text dropped: Bedrock refuses blank text blocks, and a message left with no content makes the
 * request untranslatable, but a final assistant one ({@link AlternatingTurns}); a tool result with no text, which cannot be
 * dropped, says {@value #NO_OUTPUT} unless it holds images or documents, which follow its text as
 * {@code image} and {@code document} blocks), {@code system} as text blocks,
 * {@code inferenceConfig} and {@code toolConfig}. The model and whether to stream are in the path.
 * Converse refuses {@code toolUse} and {@code toolResult} blocks without a {@code toolConfig}, so a
 * request that offers no tools but carries tool calls in its conversation (an agent's summary of its
 * own transcript) declares the tools those calls name, with an open schema.
 *
 * <p>Untranslatable: images and documents by URL (Bedrock takes bytes or S3 locations only), images
 * in a format other than png, jpeg, gif and webp, documents in one Bedrock does not read, more images
 * or documents than Converse takes in a request ({@link BedrockMedia}, which also names each document
 * as Converse requires); {@code tool_choice: none} with tools (Converse cannot forbid tool calls).
 * Bedrock has no switch for parallel tool calls: it is left to the model. The end-user id is not sent.
 *
 * <p>Stateless and thread-safe. {@code JsonObject body = BedrockRequestWriter.write(request, modelId, 200_000);}
 */
public final class BedrockRequestWriter {

    /** The text of a tool result that has none (a command that printed nothing): Bedrock refuses a blank one. */
    static final String NO_OUTPUT = "(no output)";

    private BedrockRequestWriter() {
    }

    /** @throws UntranslatableException naming what Converse cannot carry */
    public static JsonObject write(ChatRequest request) {
        return write(request, "", 0);
    }

    /**
     * The Converse body for {@code model}, of a window of {@code contextWindow} tokens (0: not known): a
     * Claude model's images and document pages are also held to Anthropic's limits ({@link BedrockMedia}).
     *
     * @throws UntranslatableException naming what Converse cannot carry
     */
    public static JsonObject write(ChatRequest request, String model, long contextWindow) {
        BedrockMedia media = BedrockMedia.forModel(model, contextWindow);
        JsonObject body = new JsonObject().put("messages", AlternatingTurns.write(request, null, "Bedrock", part -> block(part, media)));
        if (request.system() != null && !request.system().isBlank()) {
            body.put("system", new JsonArray().add(new JsonObject().put("text", request.system())));
        }
        JsonObject inference = SamplingFields.camelCase(model.contains("claude") ? SamplingFields.forClaude(request.sampling())
                : request.sampling(), "maxTokens");
        if (!inference.isEmpty()) {
            body.put("inferenceConfig", inference);
        }
        writeTools(request, body);
        return body;
    }

    private static JsonObject block(ContentPart part, BedrockMedia media) {
        if (part instanceof ContentPart.Text text) {
            return text.text().isBlank() ? null : new JsonObject().put("text", text.text());
        }
        if (part instanceof ContentPart.Image image) {
            return new JsonObject().put("image", media.image(image.source()));
        }
        if (part instanceof ContentPart.Document document) {
            return new JsonObject().put("document", media.document(document));
        }
        if (part instanceof ContentPart.ToolCall call) {
            return new JsonObject().put("toolUse", new JsonObject().put("toolUseId", call.id()).put("name", call.name())
                    .put("input", call.argumentsAsObject()));
        }
        ContentPart.ToolResult result = (ContentPart.ToolResult) part;
        JsonObject toolResult = new JsonObject().put("toolUseId", result.toolCallId())
                .put("content", toolResultContent(result, media));
        return new JsonObject().put("toolResult", result.isError() ? toolResult.put("status", "error") : toolResult);
    }

    /** Its text, then its images and documents; never empty and never a blank text, which Bedrock refuses. */
    private static JsonArray toolResultContent(ContentPart.ToolResult result, BedrockMedia media) {
        List<ContentPart> attachments = result.media();
        JsonArray content = new JsonArray();
        if (!result.content().isBlank() || attachments.isEmpty()) {
            content.add(new JsonObject().put("text", result.content().isBlank() ? NO_OUTPUT : result.content()));
        }
        for (ContentPart attached : attachments) {
            content.add(block(attached, media));
        }
        return content;
    }

    private static void writeTools(ChatRequest request, JsonObject body) {
        if (request.tools().isEmpty()) {
            JsonArray called = calledTools(request);
            if (!called.isEmpty()) {
                body.put("toolConfig", new JsonObject().put("tools", called));
            }
            return;
        }
        ToolChoice choice = request.toolChoice();
        if (choice != null && choice.mode() == ToolChoice.Mode.NONE) {
            throw new UntranslatableException("tool_choice none (Converse cannot forbid tool calls)");
        }
        JsonArray tools = new JsonArray();
        for (ToolDefinition tool : request.tools()) {
            JsonObject spec = new JsonObject().put("name", tool.name());
            if (tool.description() != null) {
                spec.put("description", tool.description());
            }
            tools.add(new JsonObject().put("toolSpec", spec.put("inputSchema", new JsonObject().put("json", tool.parameters()))));
        }
        JsonObject config = new JsonObject().put("tools", tools);
        if (choice != null) {
            config.put("toolChoice", switch (choice.mode()) {
                case REQUIRED -> new JsonObject().put("any", new JsonObject());
                case TOOL -> new JsonObject().put("tool", new JsonObject().put("name", choice.name()));
                default -> new JsonObject().put("auto", new JsonObject());
            });
        }
        body.put("toolConfig", config);
    }

    /** A tool spec for each tool the conversation calls, its parameters any object. */
    private static JsonArray calledTools(ChatRequest request) {
        Set<String> names = new LinkedHashSet<>();
        for (ChatMessage message : request.messages()) {
            for (ContentPart part : message.content()) {
                if (part instanceof ContentPart.ToolCall call) {
                    names.add(call.name());
                }
            }
        }
        JsonArray tools = new JsonArray();
        for (String name : names) {
            tools.add(new JsonObject().put("toolSpec", new JsonObject().put("name", name)
                    .put("inputSchema", new JsonObject().put("json", new JsonObject().put("type", "object")))));
        }
        return tools;
    }
}
