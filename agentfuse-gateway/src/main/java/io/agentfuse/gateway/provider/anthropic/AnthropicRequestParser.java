package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ChatRequest.StreamMode;
import io.agentfuse.gateway.dialect.CrossingNotes;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.http.DerivedValues;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.provider.TranslationTable;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses and validates an Anthropic Messages request into a {@link ChatRequest}.
 *
 * <p>Unknown top-level fields and content blocks of unknown type are kept: they go upstream
 * unchanged to an Anthropic provider. A {@code system} message in the conversation (Claude Code
 * sends one after the user's turn) is folded into the system prompt, after the top-level
 * {@code system}. What crossing to OpenAI does with each top-level field is
 * {@link TranslationTable}'s: {@code metadata} (its {@code user_id} still carried as the end user),
 * {@code thinking}, {@code top_k}, {@code service_tier}, {@code context_management},
 * {@code output_config} (its effort) and {@code cache_control} are dropped and named; server and
 * versioned tools ({@code web_search_20250305}, {@code bash_20250124}, ...) and fields the gateway
 * does not know are left out only for a lenient model; {@code container} and {@code mcp_servers}
 * are refused. Earlier {@code thinking} blocks are dropped (reasoning traces the other side cannot
 * use); base64 and URL documents cross (in a tool result too, as its attachments, like its images);
 * documents with citations, context or other sources, search results, server tool blocks, file
 * image sources and a structured {@code output_config.format} are untranslatable (kept, as opaque
 * blocks, for an Anthropic provider).
 *
 * <p>Stateless and thread-safe. {@code ChatRequest r = AnthropicRequestParser.parse(body);}
 */
public final class AnthropicRequestParser {


    /**
     * The messages of recent conversations, by their decoded values: an agent resends them every
     * turn, and the gateway's memo of decoded values hands out the very same objects for them.
     */
    private static final DerivedValues<ChatMessage> RECENT_MESSAGES = new DerivedValues<>();

    private AnthropicRequestParser() {
    }

    /** @throws InvalidRequestException naming the first bad field */
    public static ChatRequest parse(JsonObject body) {
        FieldReader root = FieldReader.root(body);
        List<String> untranslatable = new ArrayList<>();
        CrossingNotes notes = new CrossingNotes(untranslatable);
        TranslationTable.sortFields(AnthropicDialect.INSTANCE.name(), root, notes);
        String model = root.requiredString("model");
        Integer maxTokens = root.optionalInt("max_tokens", 1);
        if (maxTokens == null) {
            throw root.problem("max_tokens", "is required");
        }
        List<String> system = new ArrayList<>(2);
        String topSystem = parseSystem(root);
        if (topSystem != null) {
            system.add(topSystem);
        }
        List<ChatMessage> messages = parseMessages(root, system, untranslatable);
        List<ToolDefinition> tools = parseTools(root, notes);
        ToolChoice toolChoice = parseToolChoice(root, untranslatable);
        Sampling sampling = new Sampling(maxTokens, root.optionalNumber("temperature", 0, 1),
                root.optionalNumber("top_p", 0, 1), stopSequences(root));
        root.optionalInt("top_k", 0);
        FieldReader output = root.optionalObject("output_config");
        if (output != null && output.has("format")) {
            untranslatable.add("output_config.format (a structured answer)");
        }
        FieldReader metadata = root.optionalObject("metadata");
        String endUser = metadata == null ? null : metadata.optionalString("user_id");
        StreamMode stream = Boolean.TRUE.equals(root.optionalBoolean("stream")) ? StreamMode.STREAM : StreamMode.NONE;
        return new ChatRequest(AnthropicDialect.INSTANCE, body, model, ChatRequest.systemPrompt(system), messages,
                tools, toolChoice, sampling, stream, endUser, untranslatable, ChatRequest.Crossing.of(notes));
    }

    /** The text of a {@code system} message of the conversation: a string, or its text blocks joined. */
    private static String systemText(FieldReader message) {
        Object content = message.value("content");
        if (content instanceof String text) {
            return text;
        }
        if (!(content instanceof JsonArray blocks)) {
            throw message.problem("content", "is required and must be a string or an array of text blocks");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            FieldReader block = message.objectAt("content", i);
            if ("text".equals(block.requiredString("type"))) {
                text.append(text.length() == 0 ? "" : "\n\n").append(block.requiredString("text"));
            }
        }
        return text.toString();
    }

    private static String parseSystem(FieldReader root) {
        Object system = root.value("system");
        if (system == null || system instanceof String) {
            return (String) system;
        }
        if (!(system instanceof JsonArray blocks)) {
            throw root.problem("system", "must be a string or an array of text blocks");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            FieldReader block = root.objectAt("system", i);
            if (!"text".equals(block.requiredString("type"))) {
                throw block.problem("type", "must be \"text\", but was \"" + block.requiredString("type") + "\"");
            }
            text.append(text.length() == 0 ? "" : "\n\n").append(block.requiredString("text"));
        }
        return text.toString();
    }

    /** The conversation; the text of {@code system} messages in it is appended to {@code system}. */
    private static List<ChatMessage> parseMessages(FieldReader root, List<String> system, List<String> untranslatable) {
        JsonArray array = root.requiredArray("messages");
        if (array.isEmpty()) {
            throw root.problem("messages", "must not be empty");
        }
        List<ChatMessage> messages = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            int index = i;
            if (array.getValue(i) instanceof JsonObject raw && "system".equals(raw.getMap().get("role"))) {
                system.add(systemText(root.objectAt("messages", i)));
                continue;
            }
            ChatMessage message = RECENT_MESSAGES.derive(array.getValue(i), untranslatable,
                    notes -> AnthropicMessageParser.parse(root.objectAt("messages", index), notes));
            messages.add(message);
        }
        return messages;
    }

    private static List<ToolDefinition> parseTools(FieldReader root, CrossingNotes notes) {
        JsonArray array = root.optionalArray("tools");
        List<ToolDefinition> tools = new ArrayList<>();
        for (int i = 0; array != null && i < array.size(); i++) {
            FieldReader tool = root.objectAt("tools", i);
            String type = tool.optionalString("type");
            if (TranslationTable.tool(type) != TranslationTable.Treatment.TRANSLATE) {
                // Versioned server and client tools (web_search_20250305, bash_20250124, ...) are Anthropic's own.
                notes.lenient(type + " tool", tool.path("type") + " '" + type + "' tools");
                continue;
            }
            tools.add(new ToolDefinition(tool.requiredString("name"), tool.optionalString("description"),
                    tool.requiredObject("input_schema").json()));
        }
        return tools;
    }

    private static ToolChoice parseToolChoice(FieldReader root, List<String> untranslatable) {
        FieldReader choice = root.optionalObject("tool_choice");
        if (choice == null) {
            return null;
        }
        String type = choice.requiredString("type");
        boolean parallel = !Boolean.TRUE.equals(choice.optionalBoolean("disable_parallel_tool_use"));
        return switch (type) {
            case "auto" -> new ToolChoice(ToolChoice.Mode.AUTO, null, parallel);
            case "any" -> new ToolChoice(ToolChoice.Mode.REQUIRED, null, parallel);
            case "none" -> new ToolChoice(ToolChoice.Mode.NONE, null, parallel);
            case "tool" -> new ToolChoice(ToolChoice.Mode.TOOL, choice.requiredString("name"), parallel);
            default -> {
                untranslatable.add("tool_choice of type '" + type + "'"); // a newer kind: the provider decides
                yield null;
            }
        };
    }

    private static List<String> stopSequences(FieldReader root) {
        if (root.value("stop_sequences") instanceof String) {
            throw root.problem("stop_sequences", "must be an array of strings");
        }
        return root.stringOrStrings("stop_sequences");
    }
}
