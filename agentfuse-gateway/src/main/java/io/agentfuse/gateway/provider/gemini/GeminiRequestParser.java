package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.gateway.dialect.ChatMessage.Role;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ChatRequest.StreamMode;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.provider.CountedMedia;
import io.agentfuse.gateway.provider.InlineData;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses and validates a Gemini {@code generateContent} body (camelCase, as the SDKs send it) into a
 * {@link ChatRequest}. The model and whether to stream come from the path
 * ({@code /v1beta/models/{model}:streamGenerateContent}), not the body.
 *
 * <p>Gemini has no tool-call ids: a {@code functionCall} without one is numbered {@code call_N} in the
 * order of the conversation, and a {@code functionResponse} answers the oldest unanswered call of its
 * name. When the request crosses to another dialect: {@code thought} parts, {@code topK}, {@code seed},
 * {@code thinkingConfig}, {@code safetySettings} and {@code labels} are dropped (hints the other side
 * cannot use; it applies its own filters); {@code cachedContent}, server tools ({@code googleSearch},
 * {@code codeExecution}, ...), structured output, several candidates, code-execution and file parts
 * other than images and PDFs, and unknown fields are untranslatable. The images and PDFs of a
 * multimodal function response ({@code functionResponse.parts}) cross as its tool result's attachments.
 *
 * <p>Stateless and thread-safe. {@code ChatRequest r = GeminiRequestParser.parse(body, "gemini-2.5-pro", false);}
 */
public final class GeminiRequestParser {

    /** The body's fields; {@code model} and {@code stream} are those the gateway's endpoint adds from the path. */
    private static final Set<String> KNOWN = Set.of("contents", "model", "stream", "systemInstruction", "tools", "toolConfig",
            "generationConfig", "safetySettings", "cachedContent", "labels");
    private static final Set<String> KNOWN_GENERATION = Set.of("maxOutputTokens", "temperature", "topP", "topK",
            "stopSequences", "seed", "thinkingConfig", "candidateCount", "responseMimeType");

    private GeminiRequestParser() {
    }

    /**
     * @param model  the model named by the path
     * @param stream whether the path asked for a stream
     * @throws InvalidRequestException naming the first bad field
     */
    public static ChatRequest parse(JsonObject body, String model, boolean stream) {
        FieldReader root = FieldReader.root(body);
        List<String> untranslatable = new ArrayList<>(root.unknownFields(KNOWN));
        if (root.has("cachedContent")) {
            untranslatable.add("cachedContent (content cached at Gemini)");
        }
        List<ChatMessage> messages = messages(root, untranslatable);
        String system = system(root.optionalObject("systemInstruction"));
        List<ToolDefinition> tools = tools(root, untranslatable);
        ToolChoice choice = toolChoice(root.optionalObject("toolConfig"), untranslatable);
        Sampling sampling = sampling(root.optionalObject("generationConfig"), untranslatable);
        return new ChatRequest(GeminiDialect.INSTANCE, body, model, system, messages, tools, choice, sampling,
                stream ? StreamMode.STREAM : StreamMode.NONE, null, untranslatable);
    }

    private static List<ChatMessage> messages(FieldReader root, List<String> untranslatable) {
        JsonArray contents = root.requiredArray("contents");
        if (contents.isEmpty()) {
            throw root.problem("contents", "must not be empty");
        }
        Map<String, Deque<String>> unanswered = new HashMap<>();
        int[] calls = {0};
        List<ChatMessage> messages = new ArrayList<>(contents.size());
        for (int i = 0; i < contents.size(); i++) {
            FieldReader content = root.objectAt("contents", i);
            String roleName = content.optionalString("role");
            Role role = switch (roleName == null ? "user" : roleName) {
                case "user", "function" -> Role.USER;
                case "model" -> Role.ASSISTANT;
                default -> throw content.problem("role", "must be \"user\" or \"model\", but was \"" + roleName + "\"");
            };
            JsonArray parts = content.requiredArray("parts");
            List<ContentPart> pieces = new ArrayList<>(parts.size());
            for (int p = 0; p < parts.size(); p++) {
                ContentPart piece = part(content.objectAt("parts", p), unanswered, calls, untranslatable);
                if (piece != null) {
                    pieces.add(piece);
                }
            }
            messages.add(new ChatMessage(role, pieces, GeminiDialect.INSTANCE, List.of(content.json())));
        }
        return messages;
    }

    private static ContentPart part(FieldReader part, Map<String, Deque<String>> unanswered, int[] calls,
                                    List<String> untranslatable) {
        if (Boolean.TRUE.equals(part.optionalBoolean("thought"))) {
            return null;
        }
        if (part.has("text")) {
            return new ContentPart.Text(part.requiredString("text"));
        }
        FieldReader call = part.optionalObject("functionCall");
        if (call != null) {
            String name = call.requiredString("name");
            String id = call.optionalString("id") != null ? call.optionalString("id") : "call_" + calls[0];
            calls[0]++;
            unanswered.computeIfAbsent(name, key -> new ArrayDeque<>()).addLast(id);
            FieldReader args = call.optionalObject("args");
            return new ContentPart.ToolCall(id, name, args == null ? "{}" : args.json().encode());
        }
        FieldReader response = part.optionalObject("functionResponse");
        if (response != null) {
            return functionResponse(response, unanswered, untranslatable);
        }
        ContentPart media = media(part);
        if (media != null) {
            return media;
        }
        String kind = part.json().isEmpty() ? "(empty)" : part.json().fieldNames().iterator().next();
        untranslatable.add(part.path(kind) + " parts (only text, images, PDFs and function calls cross dialects)");
        return CountedMedia.ofGeminiOther(part); // untranslatable, but counted
    }

    /**
     * The image or PDF of an {@code inlineData} or {@code fileData} part; {@code null} for other
     * media (audio, video), which the other dialects do not take the same way, or a part of neither kind.
     */
    private static ContentPart media(FieldReader part) {
        FieldReader inline = part.optionalObject("inlineData");
        FieldReader file = inline == null ? part.optionalObject("fileData") : null;
        if (inline == null && file == null) {
            return null;
        }
        String mimeType = inline != null ? inline.requiredString("mimeType") : String.valueOf(file.optionalString("mimeType"));
        String given = inline != null ? inline.requiredString("data") : file.requiredString("fileUri");
        boolean image = mimeType.startsWith("image/");
        if (!(image || "application/pdf".equals(mimeType)) || !InlineData.isMediaType(mimeType)) {
            return null;
        }
        MediaSource source = inline != null ? InlineData.of(inline, "mimeType", "data") : MediaSource.of(given);
        return image ? new ContentPart.Image(source) : new ContentPart.Document(source, null);
    }

    private static ContentPart functionResponse(FieldReader response, Map<String, Deque<String>> unanswered,
                                                List<String> untranslatable) {
        String name = response.requiredString("name");
        Deque<String> waiting = unanswered.get(name);
        String id = response.optionalString("id");
        if (id == null && (waiting == null || waiting.isEmpty())) {
            untranslatable.add(response.path("name") + " '" + name + "' answers no functionCall of the conversation");
            id = "call_unanswered_" + name;
        } else if (id == null) {
            id = waiting.removeFirst();
        } else if (waiting != null) {
            waiting.remove(id);
        }
        FieldReader result = response.optionalObject("response");
        JsonObject value = result == null ? new JsonObject() : result.json();
        boolean isError = value.containsKey("error") && !value.containsKey("output");
        Object text = isError ? value.getValue("error") : value.containsKey("output") ? value.getValue("output")
                : value.getValue("content");
        return new ContentPart.ToolResult(id, text instanceof String string ? string : value.encode(), isError,
                responseMedia(response, untranslatable));
    }

    /**
     * The media of a multimodal function response ({@code parts} of {@code inlineData} or {@code fileData}):
     * images and PDFs, which cross; any other, which is only counted.
     */
    private static List<ContentPart> responseMedia(FieldReader response, List<String> untranslatable) {
        JsonArray parts = response.optionalArray("parts");
        if (parts == null || parts.isEmpty()) {
            return List.of();
        }
        List<ContentPart> attached = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            FieldReader part = response.objectAt("parts", i);
            ContentPart media = media(part);
            if (media == null) {
                untranslatable.add(response.path("parts") + "[" + i + "] (media other than images and PDFs in a function response)");
                media = CountedMedia.ofGeminiOther(part);
            }
            attached.add(media);
        }
        return attached;
    }

    private static String system(FieldReader instruction) {
        if (instruction == null) {
            return null;
        }
        JsonArray parts = instruction.requiredArray("parts");
        List<String> texts = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            texts.add(instruction.objectAt("parts", i).requiredString("text"));
        }
        return ChatRequest.systemPrompt(texts);
    }

    private static List<ToolDefinition> tools(FieldReader root, List<String> untranslatable) {
        JsonArray array = root.optionalArray("tools");
        List<ToolDefinition> tools = new ArrayList<>();
        for (int i = 0; array != null && i < array.size(); i++) {
            FieldReader tool = root.objectAt("tools", i);
            for (String field : tool.json().fieldNames()) {
                if (!"functionDeclarations".equals(field)) {
                    untranslatable.add(tool.path(field) + " (a tool that runs at Gemini)");
                }
            }
            JsonArray declarations = tool.optionalArray("functionDeclarations");
            for (int d = 0; declarations != null && d < declarations.size(); d++) {
                FieldReader declaration = tool.objectAt("functionDeclarations", d);
                FieldReader jsonSchema = declaration.optionalObject("parametersJsonSchema");
                FieldReader openApiSchema = declaration.optionalObject("parameters");
                JsonObject schema = jsonSchema != null ? jsonSchema.json()
                        : openApiSchema != null ? jsonSchemaTypes(openApiSchema.json().copy()) : null;
                tools.add(new ToolDefinition(declaration.requiredString("name"), declaration.optionalString("description"),
                        schema));
            }
        }
        return tools;
    }

    /**
     * {@code schema} with the types of Gemini's OpenAPI-style {@code parameters} ({@code "OBJECT"},
     * {@code "STRING"}, ...) written as JSON Schema writes them ({@code "object"}), at every depth.
     */
    static JsonObject jsonSchemaTypes(JsonObject schema) {
        for (String field : List.copyOf(schema.fieldNames())) {
            Object value = schema.getValue(field);
            if ("type".equals(field) && value instanceof String type) {
                schema.put(field, type.toLowerCase(Locale.ROOT));
            } else if (value instanceof JsonObject nested) {
                jsonSchemaTypes(nested);
            } else if (value instanceof JsonArray items) {
                items.forEach(item -> {
                    if (item instanceof JsonObject nested) {
                        jsonSchemaTypes(nested);
                    }
                });
            }
        }
        return schema;
    }

    private static ToolChoice toolChoice(FieldReader config, List<String> untranslatable) {
        FieldReader calling = config == null ? null : config.optionalObject("functionCallingConfig");
        if (calling == null) {
            return null;
        }
        String mode = calling.optionalString("mode");
        List<String> allowed = calling.stringOrStrings("allowedFunctionNames");
        if (mode == null || "AUTO".equals(mode) || "MODE_UNSPECIFIED".equals(mode) || "VALIDATED".equals(mode)) {
            if (!allowed.isEmpty()) {
                untranslatable.add(calling.path("allowedFunctionNames") + " without mode ANY");
            }
            return new ToolChoice(ToolChoice.Mode.AUTO, null, true);
        }
        return switch (mode) {
            case "NONE" -> new ToolChoice(ToolChoice.Mode.NONE, null, true);
            case "ANY" -> {
                if (allowed.size() > 1) {
                    untranslatable.add(calling.path("allowedFunctionNames") + " naming several functions");
                }
                yield allowed.size() == 1 ? new ToolChoice(ToolChoice.Mode.TOOL, allowed.get(0), true)
                        : new ToolChoice(ToolChoice.Mode.REQUIRED, null, true);
            }
            default -> throw calling.problem("mode", "must be one of AUTO, ANY, NONE, VALIDATED, but was \"" + mode + "\"");
        };
    }

    private static Sampling sampling(FieldReader config, List<String> untranslatable) {
        if (config == null) {
            return new Sampling(null, null, null, List.of());
        }
        untranslatable.addAll(config.unknownFields(KNOWN_GENERATION));
        Integer candidates = config.optionalInt("candidateCount", 1);
        if (candidates != null && candidates > 1) {
            untranslatable.add(config.path("candidateCount") + " above 1");
        }
        String mime = config.optionalString("responseMimeType");
        if (mime != null && !"text/plain".equals(mime)) {
            untranslatable.add(config.path("responseMimeType") + " '" + mime + "' (structured output)");
        }
        config.optionalInt("topK", 1);
        return new Sampling(config.optionalInt("maxOutputTokens", 1), config.optionalNumber("temperature", 0, 2),
                config.optionalNumber("topP", 0, 1), config.stringOrStrings("stopSequences"));
    }
}
