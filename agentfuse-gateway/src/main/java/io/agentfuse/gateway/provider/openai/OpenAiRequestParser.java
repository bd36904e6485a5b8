package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatMessage.Role;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ChatRequest.StreamMode;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.CrossingNotes;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.http.DerivedValues;
import io.agentfuse.gateway.provider.CountedMedia;
import io.agentfuse.gateway.provider.InlineData;
import io.agentfuse.gateway.provider.TranslationTable;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Parses and validates an OpenAI Chat Completions request into a {@link ChatRequest}.
 *
 * <p>Unknown top-level fields and content parts of unknown type are kept: they go upstream
 * unchanged to an OpenAI provider. What crossing to Anthropic does with each top-level field is
 * {@link TranslationTable}'s: translated (messages, system/developer messages hoisted in order into
 * the system prompt, tools, tool_choice, parallel_tool_calls, max_tokens/max_completion_tokens,
 * temperature up to 1, top_p, stop, stream, stream_options, user), dropped and named (penalties,
 * seed, store, metadata, service_tier, reasoning_effort, verbosity, prompt-cache keys,
 * safety_identifier), left out only for a lenient model (web_search_options, built-in tools, fields
 * the gateway does not know) or refused. This parser refuses the values that change the answer:
 * n &gt; 1, logprobs, audio modalities, input_audio and file parts, response_format other than text,
 * a non-empty logit_bias, temperature above Anthropic's 1.
 *
 * <p>Stateless and thread-safe. {@code ChatRequest r = OpenAiRequestParser.parse(body);}
 */
public final class OpenAiRequestParser {

    /**
     * The turns of recent conversations, by the messages' decoded values: an agent resends them every
     * turn, and the gateway's memo of decoded values hands out the very same objects for them.
     */
    private static final DerivedValues<Turn> RECENT_TURNS = new DerivedValues<>();

    private OpenAiRequestParser() {
    }

    /** @throws InvalidRequestException naming the first bad field */
    public static ChatRequest parse(JsonObject body) {
        FieldReader root = FieldReader.root(body);
        List<String> untranslatable = new ArrayList<>();
        CrossingNotes notes = new CrossingNotes(untranslatable);
        TranslationTable.sortFields(OpenAiDialect.INSTANCE.name(), root, notes);
        String model = root.requiredString("model");
        List<String> system = new ArrayList<>();
        List<ChatMessage> messages = parseMessages(root, system, untranslatable);
        List<ToolDefinition> tools = parseTools(root, notes);
        ToolChoice toolChoice = parseToolChoice(root, untranslatable,
                choice -> choice.requiredObject("function").requiredString("name"));
        Integer maxTokens = root.has("max_completion_tokens")
                ? root.optionalInt("max_completion_tokens", 1) : root.optionalInt("max_tokens", 1);
        Double temperature = root.optionalNumber("temperature", 0, 2);
        if (temperature != null && temperature > 1) {
            untranslatable.add("temperature " + temperature + " is above Anthropic's maximum of 1");
        }
        Sampling sampling = new Sampling(maxTokens, temperature, root.optionalNumber("top_p", 0, 1),
                root.stringOrStrings("stop"));
        noteUntranslatableOptions(root, untranslatable);
        return new ChatRequest(OpenAiDialect.INSTANCE, body, model, ChatRequest.systemPrompt(system),
                messages, tools, toolChoice, sampling, streamMode(root), root.optionalString("user"), untranslatable,
                ChatRequest.Crossing.of(notes));
    }

    private static List<ChatMessage> parseMessages(FieldReader root, List<String> system, List<String> untranslatable) {
        JsonArray array = root.requiredArray("messages");
        if (array.isEmpty()) {
            throw root.problem("messages", "must not be empty");
        }
        OpenAiRiders messages = new OpenAiRiders();
        for (int i = 0; i < array.size(); i++) {
            int index = i;
            Turn turn = RECENT_TURNS.derive(array.getValue(i), untranslatable,
                    notes -> parseTurn(root.objectAt("messages", index), notes));
            if (turn.system() != null) {
                system.add(turn.system());
                messages.system(array.getJsonObject(i));
            } else if (turn.message() != null) {
                messages.message(turn.message());
            } else {
                messages.unread(array.getJsonObject(i), turn.counted());
            }
        }
        return messages.messages();
    }

    private static Turn parseTurn(FieldReader message, List<String> untranslatable) {
        String role = message.requiredString("role");
        return switch (role) {
            case "system", "developer" -> new Turn(text(message, "content", true), null, null);
            case "user" -> new Turn(null, read(message, Role.USER, userContent(message, untranslatable)), null);
            case "assistant" -> new Turn(null, read(message, Role.ASSISTANT, assistantContent(message, untranslatable)), null);
            case "tool" -> new Turn(null, read(message, Role.USER, List.of(new ContentPart.ToolResult(
                    message.requiredString("tool_call_id"), text(message, "content", true), false))), null);
            case "function" -> {
                untranslatable.add(message.path("role") + " 'function' (the legacy functions API)");
                yield new Turn(null, null, new ContentPart.Opaque(message.json().encode())); // counted as its JSON
            }
            default -> throw message.problem("role",
                    "must be one of system, developer, user, assistant, tool, but was \"" + role + "\"");
        };
    }

    private static ChatMessage read(FieldReader message, Role role, List<ContentPart> content) {
        return new ChatMessage(role, content, OpenAiDialect.INSTANCE, List.of(message.json()));
    }

    /** One element of {@code messages}: a part of the system prompt, a message, or what a rider counts ({@link OpenAiRiders}). */
    private record Turn(String system, ChatMessage message, ContentPart counted) {
    }

    private static List<ContentPart> userContent(FieldReader message, List<String> untranslatable) {
        Object content = message.value("content");
        if (content instanceof String text) {
            return List.of(new ContentPart.Text(text));
        }
        if (!(content instanceof JsonArray)) {
            throw message.problem("content", "must be a string or an array of content parts");
        }
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < ((JsonArray) content).size(); i++) {
            FieldReader part = message.objectAt("content", i);
            String type = part.requiredString("type");
            switch (type) {
                case "text" -> parts.add(new ContentPart.Text(part.requiredString("text")));
                case "image_url" -> parts.add(new ContentPart.Image(part.value("image_url") instanceof String
                        ? InlineData.url(part, "image_url", untranslatable)
                        : InlineData.url(part.requiredObject("image_url"), "url", untranslatable)));
                case "file" -> {
                    FieldReader file = part.requiredObject("file");
                    String title = file.optionalString("filename");
                    if (file.has("file_data")) {
                        parts.add(new ContentPart.Document(InlineData.fileData(file, "file_data", untranslatable), title));
                    } else if (file.has("file_id")) {
                        untranslatable.add(file.path("file_id") + " (a file stored at the provider)");
                    } else {
                        throw file.problem("file_id", "is required when a file part has no file_data");
                    }
                }
                case "input_audio" -> {
                    untranslatable.add(part.path("type") + " '" + type + "' parts");
                    parts.add(CountedMedia.ofOpenAiPart(part)); // untranslatable, but counted
                }
                default -> untranslatable.add(part.path("type") + " '" + type + "' parts");
            }
        }
        return parts;
    }

    private static List<ContentPart> assistantContent(FieldReader message, List<String> untranslatable) {
        List<ContentPart> parts = new ArrayList<>();
        if (message.has("content")) {
            String text = text(message, "content", false);
            if (!text.isEmpty()) {
                parts.add(new ContentPart.Text(text));
            }
        }
        String refusal = message.optionalString("refusal");
        if (refusal != null && !refusal.isEmpty()) {
            parts.add(new ContentPart.Text(refusal));
        }
        if (message.has("audio") || message.has("function_call")) {
            untranslatable.add(message.path(message.has("audio") ? "audio" : "function_call") + " in an assistant message");
        }
        JsonArray calls = message.optionalArray("tool_calls");
        for (int i = 0; calls != null && i < calls.size(); i++) {
            FieldReader call = message.objectAt("tool_calls", i);
            String type = call.optionalString("type");
            if (type != null && !"function".equals(type)) {
                untranslatable.add(call.path("type") + " '" + type + "' tool calls");
                continue;
            }
            FieldReader function = call.requiredObject("function");
            parts.add(new ContentPart.ToolCall(call.requiredString("id"), function.requiredString("name"),
                    function.requiredString("arguments")));
        }
        return parts;
    }

    /** A string, or the text parts of an array joined; refusal parts count as text (a system message's, as the prompt holds it). */
    static String text(FieldReader message, String field, boolean required) {
        Object content = message.value(field);
        if (content == null && !required) {
            return "";
        }
        if (content instanceof String text) {
            return text;
        }
        if (!(content instanceof JsonArray array)) {
            throw message.problem(field, (required ? "is required and " : "") + "must be a string or an array of text parts");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < array.size(); i++) {
            FieldReader part = message.objectAt(field, i);
            String type = part.requiredString("type");
            switch (type) {
                case "text" -> text.append(part.requiredString("text"));
                case "refusal" -> text.append(part.requiredString("refusal"));
                default -> throw part.problem("type", "must be \"text\" here, but was \"" + type + "\"");
            }
        }
        return text.toString();
    }

    private static List<ToolDefinition> parseTools(FieldReader root, CrossingNotes notes) {
        JsonArray array = root.optionalArray("tools");
        if (array == null) {
            return List.of();
        }
        List<ToolDefinition> tools = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            FieldReader tool = root.objectAt("tools", i);
            String type = tool.requiredString("type");
            if (!"function".equals(type)) {
                notes.lenient(type + " tool", tool.path("type") + " '" + type + "' tools");
                continue;
            }
            FieldReader function = tool.requiredObject("function");
            FieldReader parameters = function.optionalObject("parameters");
            tools.add(new ToolDefinition(function.requiredString("name"), function.optionalString("description"),
                    parameters == null ? null : parameters.json()));
        }
        return tools;
    }

    /**
     * Reads {@code tool_choice} and {@code parallel_tool_calls} as both OpenAI APIs write them; they
     * differ only in where a named function's name is ({@code functionName} reads it from the
     * choice object). A choice of a built-in tool is recorded as untranslatable.
     */
    public static ToolChoice parseToolChoice(FieldReader root, List<String> untranslatable,
                                             Function<FieldReader, String> functionName) {
        Boolean parallelFlag = root.optionalBoolean("parallel_tool_calls");
        boolean parallel = parallelFlag == null || parallelFlag;
        Object choice = root.value("tool_choice");
        if (choice == null) {
            return parallel ? null : new ToolChoice(ToolChoice.Mode.AUTO, null, false);
        }
        if (choice instanceof String mode) {
            return switch (mode) {
                case "auto" -> new ToolChoice(ToolChoice.Mode.AUTO, null, parallel);
                case "required" -> new ToolChoice(ToolChoice.Mode.REQUIRED, null, parallel);
                case "none" -> new ToolChoice(ToolChoice.Mode.NONE, null, parallel);
                default -> throw root.problem("tool_choice",
                        "must be \"none\", \"auto\", \"required\" or an object, but was \"" + mode + "\"");
            };
        }
        FieldReader object = root.requiredObject("tool_choice");
        String type = object.requiredString("type");
        if (!"function".equals(type)) {
            untranslatable.add("tool_choice of type '" + type + "'");
            return null;
        }
        return new ToolChoice(ToolChoice.Mode.TOOL, functionName.apply(object), parallel);
    }

    private static StreamMode streamMode(FieldReader root) {
        if (!Boolean.TRUE.equals(root.optionalBoolean("stream"))) {
            return StreamMode.NONE;
        }
        FieldReader options = root.optionalObject("stream_options");
        boolean usage = options != null && Boolean.TRUE.equals(options.optionalBoolean("include_usage"));
        return usage ? StreamMode.STREAM_WITH_USAGE : StreamMode.STREAM;
    }

    private static void noteUntranslatableOptions(FieldReader root, List<String> untranslatable) {
        Integer n = root.optionalInt("n", 1);
        if (n != null && n > 1) {
            untranslatable.add("n=" + n + " (Anthropic answers with one choice)");
        }
        if (Boolean.TRUE.equals(root.optionalBoolean("logprobs"))) {
            untranslatable.add("logprobs");
        }
        JsonArray modalities = root.optionalArray("modalities");
        if (modalities != null && modalities.contains("audio")) {
            untranslatable.add("modalities with audio");
        }
        FieldReader format = root.optionalObject("response_format");
        if (format != null && !"text".equals(format.requiredString("type"))) {
            untranslatable.add("response_format " + format.requiredString("type"));
        }
        FieldReader logitBias = root.optionalObject("logit_bias");
        if (logitBias != null && !logitBias.json().isEmpty()) {
            untranslatable.add("logit_bias");
        }
    }
}
