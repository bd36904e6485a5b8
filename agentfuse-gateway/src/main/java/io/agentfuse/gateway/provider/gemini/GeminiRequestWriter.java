package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.agent.tokens.ModelName;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.CallerField;
import io.agentfuse.gateway.provider.SamplingFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a neutral {@link ChatRequest} as a Gemini {@code GenerateContentRequest} body, as the Gemini
 * API and Gemini models on Vertex AI take it: {@code contents} of {@code user} and {@code model} turns
 * (consecutive turns of one role merged), {@code systemInstruction}, {@code tools[].functionDeclarations}
 * with {@code parametersJsonSchema} (the caller's JSON Schema as it is: Gemini's own {@code parameters}
 * schema is an OpenAPI subset that refuses much of JSON Schema), {@code toolConfig.functionCallingConfig}
 * and {@code generationConfig}. The model and whether to stream are not in the body: they are in the path.
 *
 * <p>Gemini matches a {@code functionResponse} to its call by the function's name, so a tool result is
 * written with the name of the call it answers, found earlier in the conversation; a result whose call
 * is not there is untranslatable. Images and documents: a {@code data:} URL becomes {@code inlineData},
 * any other URL {@code fileData}; a tool result's go inside its {@code functionResponse} as {@code parts}
 * (Gemini 3's multimodal function responses, which want them there rather than beside it), and for
 * the models before Gemini 3, which take no media there, after the turn's function responses. A turn
 * read from a Gemini caller is written as it came (a compacted or continued request of the caller's own
 * dialect loses no part or field of it).
 *
 * <p>Stateless and thread-safe. {@code JsonObject body = GeminiRequestWriter.write(request, "gemini-3-pro");}
 */
public final class GeminiRequestWriter {

    private GeminiRequestWriter() {
    }

    /**
     * The body for {@code model}, whose generation decides where a tool result's media go.
     *
     * @throws UntranslatableException when a tool result answers no call of the conversation, or an image is not base64
     */
    public static JsonObject write(ChatRequest request, String model) {
        JsonObject body = new JsonObject().put("contents", contents(request, nestsFunctionMedia(model)));
        if (request.system() != null && !request.system().isBlank()) {
            body.put("systemInstruction", new JsonObject().put("parts", new JsonArray().add(text(request.system()))));
        }
        writeTools(request, body);
        JsonObject generation = SamplingFields.camelCase(request.sampling(), "maxOutputTokens");
        if (!generation.isEmpty()) {
            body.put("generationConfig", generation);
        }
        return body;
    }

    /**
     * Whether {@code model} takes a tool result's media inside its {@code functionResponse} (Gemini 3
     * on; unknown names too): the models before it take none there, and are given them as parts of
     * the turn after its function responses.
     */
    static boolean nestsFunctionMedia(String model) {
        return !ModelName.of(model).isGeminiBefore3();
    }

    /**
     * The conversation as Gemini's turns, a message of the role before merged into its turn. A turn
     * left with no part is untranslatable, but for a final model turn (an empty prefill asks nothing):
     * Gemini refuses an empty text, and leaving the turn out would change what the model is asked.
     */
    private static JsonArray contents(ChatRequest request, boolean nestedMedia) {
        List<ChatMessage> messages = request.messages();
        Map<String, String> callNames = new HashMap<>();
        JsonArray contents = new JsonArray();
        String lastRole = null;
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage message = messages.get(i);
            String role = message.role() == ChatMessage.Role.USER ? "user" : "model";
            List<JsonObject> origin = message.originIn(GeminiDialect.INSTANCE);
            JsonArray parts = origin.isEmpty() ? written(message, callNames, nestedMedia)
                    : sentParts(origin.get(0), message, callNames);
            boolean merges = role.equals(lastRole);
            boolean nextMerges = i + 1 < messages.size() && messages.get(i + 1).role() == message.role();
            if (parts.isEmpty() && !merges && !nextMerges && (role.equals("user") || i + 1 < messages.size())) {
                throw new UntranslatableException(CallerField.ofMessage(request, i)
                        + " has no content (Gemini refuses an empty message or text, but for a final model message)");
            }
            if (parts.isEmpty()) {
                continue;
            }
            if (role.equals(lastRole)) {
                // Merged into the turn before: a copy of it, since it may be the caller's own (shared, never changed).
                JsonObject before = contents.getJsonObject(contents.size() - 1);
                JsonArray merged = new JsonArray(new ArrayList<>(before.getJsonArray("parts").getList())).addAll(parts);
                contents.set(contents.size() - 1, new JsonObject().put("role", role).put("parts", merged));
            } else {
                contents.add(origin.isEmpty() ? new JsonObject().put("role", role).put("parts", parts) : origin.get(0));
            }
            lastRole = role;
        }
        return contents;
    }

    private static JsonArray written(ChatMessage message, Map<String, String> callNames, boolean nestedMedia) {
        JsonArray parts = new JsonArray();
        JsonArray afterResponses = new JsonArray();
        for (ContentPart part : message.content()) {
            JsonObject written = part(part, callNames);
            if (written != null) {
                parts.add(written);
            }
            List<ContentPart> attachments = part instanceof ContentPart.ToolResult result ? result.media() : List.of();
            if (!attachments.isEmpty()) {
                JsonArray media = new JsonArray();
                for (ContentPart attached : attachments) {
                    media.add(part(attached, callNames));
                }
                if (nestedMedia) {
                    written.getJsonObject("functionResponse").put("parts", media);
                } else {
                    afterResponses.addAll(media);
                }
            }
        }
        return parts.addAll(afterResponses);
    }

    /**
     * The parts of a Gemini caller's own turn, as it sent them (thought signatures, media no other
     * dialect takes and every other field included); its calls are noted for the results written after it.
     */
    private static JsonArray sentParts(JsonObject content, ChatMessage message, Map<String, String> callNames) {
        for (ContentPart part : message.content()) {
            if (part instanceof ContentPart.ToolCall call) {
                callNames.put(call.id(), call.name());
            }
        }
        return content.getValue("parts") instanceof JsonArray parts ? parts : new JsonArray();
    }

    private static JsonObject part(ContentPart part, Map<String, String> callNames) {
        if (part instanceof ContentPart.Text text) {
            return text.text().isEmpty() ? null : text(text.text());
        }
        if (part instanceof ContentPart.Image image) {
            return media(image.source(), null);
        }
        if (part instanceof ContentPart.Document document) {
            return media(document.source(), document.mediaType());
        }
        if (part instanceof ContentPart.ToolCall call) {
            callNames.put(call.id(), call.name());
            return new JsonObject().put("functionCall", new JsonObject().put("name", call.name())
                    .put("args", call.argumentsAsObject()));
        }
        ContentPart.ToolResult result = (ContentPart.ToolResult) part;
        String name = callNames.get(result.toolCallId());
        if (name == null) {
            throw new UntranslatableException("the result of tool call " + result.toolCallId()
                    + " answers no call of the conversation (Gemini matches results to calls by name)");
        }
        JsonObject response = new JsonObject().put(result.isError() ? "error" : "output", result.content());
        return new JsonObject().put("functionResponse", new JsonObject().put("name", name).put("response", response));
    }

    /** {@code inlineData} for inline media (its base64 as given), else {@code fileData}, with {@code mediaType} when it is known. */
    private static JsonObject media(MediaSource source, String mediaType) {
        MediaSource.Inline data = source.inline();
        if (data == null) {
            JsonObject file = new JsonObject().put("fileUri", source.url());
            return new JsonObject().put("fileData", mediaType == null ? file : file.put("mimeType", mediaType));
        }
        return new JsonObject().put("inlineData", new JsonObject().put("mimeType", data.mediaType()).put("data", data.base64()));
    }

    private static JsonObject text(String text) {
        return new JsonObject().put("text", text);
    }

    private static void writeTools(ChatRequest request, JsonObject body) {
        if (request.tools().isEmpty()) {
            return;
        }
        JsonArray declarations = new JsonArray();
        for (ToolDefinition tool : request.tools()) {
            JsonObject declaration = new JsonObject().put("name", tool.name());
            if (tool.description() != null) {
                declaration.put("description", tool.description());
            }
            declarations.add(declaration.put("parametersJsonSchema", tool.parameters()));
        }
        body.put("tools", new JsonArray().add(new JsonObject().put("functionDeclarations", declarations)));
        ToolChoice choice = request.toolChoice();
        if (choice == null) {
            return;
        }
        JsonObject config = new JsonObject().put("mode", switch (choice.mode()) {
            case AUTO -> "AUTO";
            case REQUIRED, TOOL -> "ANY";
            case NONE -> "NONE";
        });
        if (choice.mode() == ToolChoice.Mode.TOOL) {
            config.put("allowedFunctionNames", new JsonArray().add(choice.name()));
        }
        body.put("toolConfig", new JsonObject().put("functionCallingConfig", config));
    }
}
