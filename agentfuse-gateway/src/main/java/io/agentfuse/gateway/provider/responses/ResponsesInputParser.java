package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatMessage.Role;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.http.DerivedValues;
import io.agentfuse.gateway.provider.CountedMedia;
import io.agentfuse.gateway.provider.InlineData;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads a Responses request's {@code input} — a string, or a list of items — into neutral
 * messages, for {@link ResponsesRequestParser}.
 *
 * <p>Items follow each other as turns; a {@code function_call} joins the assistant message before
 * it and a {@code function_call_output} the tool results before it, so that one assistant turn
 * with text and calls stays one turn. System and developer messages go to the system prompt.
 * Stateless.
 */
final class ResponsesInputParser {

    /**
     * The items of recent conversations, by their decoded values: an agent resends them every turn,
     * and the gateway's memo of decoded values hands out the very same objects for them.
     */
    private static final DerivedValues<Item> RECENT_ITEMS = new DerivedValues<>();

    private ResponsesInputParser() {
    }

    /** The conversation; system text is appended to {@code system}, untranslatable parts to {@code untranslatable}. */
    static List<ChatMessage> parse(FieldReader root, List<String> system, List<String> untranslatable) {
        Object input = root.value("input");
        List<ChatMessage> messages = new ArrayList<>();
        if (input == null) {
            return messages;
        }
        if (input instanceof String text) {
            messages.add(new ChatMessage(Role.USER, List.of(new ContentPart.Text(text))));
            return messages;
        }
        if (!(input instanceof JsonArray items)) {
            throw root.problem("input", "must be a string or an array of input items");
        }
        List<JsonObject> unread = new ArrayList<>();
        List<ContentPart> counted = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            int index = i;
            Item item = RECENT_ITEMS.derive(items.getValue(i), untranslatable,
                    notes -> item(root.objectAt("input", index), notes));
            item.addTo(messages, system, root.objectAt("input", index).json(), unread, counted);
        }
        if (!unread.isEmpty() && !messages.isEmpty()) {
            ChatMessage last = messages.get(messages.size() - 1);
            messages.set(messages.size() - 1, read(last.role(), joined(last.content(), counted), origin(last), unread));
        }
        return messages;
    }

    /** A message read from the items of {@code origin} and then {@code more}. */
    private static ChatMessage read(Role role, List<ContentPart> content, List<JsonObject> origin, List<JsonObject> more) {
        List<JsonObject> items = new ArrayList<>(origin.size() + more.size());
        items.addAll(origin);
        items.addAll(more);
        return new ChatMessage(role, content, ResponsesDialect.INSTANCE, items);
    }

    private static List<JsonObject> origin(ChatMessage message) {
        return message.originIn(ResponsesDialect.INSTANCE);
    }

    private static Item item(FieldReader item, List<String> untranslatable) {
        String type = item.optionalString("type");
        if (type == null && item.has("role")) {
            type = "message";
        }
        if (type == null) {
            throw item.problem("type", "is required for items that are not messages");
        }
        return switch (type) {
            case "message" -> message(item, untranslatable);
            case "function_call" -> Item.joining(Role.ASSISTANT, new ContentPart.ToolCall(
                    item.requiredString("call_id"), flatName(item), item.requiredString("arguments")));
            case "function_call_output" -> Item.joining(Role.USER, toolResult(item, untranslatable));
            // Earlier reasoning is the provider's own trace; another model cannot use it.
            case "reasoning" -> Item.NOTHING;
            case "item_reference" -> {
                untranslatable.add(item.path("type") + " 'item_reference' items (they need the provider's stored state)");
                yield Item.NOTHING;
            }
            default -> { // a custom or built-in tool's call or output
                untranslatable.add(item.path("type") + " '" + type + "' items");
                yield new Item(null, null, null, List.of(), CountedItem.of(item.json()));
            }
        };
    }

    /** The name of a called function, flattened with its namespace as the request's tools are. */
    private static String flatName(FieldReader call) {
        String namespace = call.optionalString("namespace");
        String name = call.requiredString("name");
        return namespace == null ? name : namespace + ResponsesRequestParser.NAMESPACE_SEPARATOR + name;
    }

    private static Item message(FieldReader item, List<String> untranslatable) {
        String role = item.requiredString("role");
        return switch (role) {
            case "system", "developer" -> new Item(systemText(item), null, null, List.of(), null);
            case "user" -> new Item(null, new ChatMessage(Role.USER, parts(item, untranslatable), ResponsesDialect.INSTANCE,
                    List.of(item.json())), null, List.of(), null);
            case "assistant" -> new Item(null, null, Role.ASSISTANT, parts(item, untranslatable), null);
            default -> throw item.problem("role",
                    "must be one of user, assistant, system, developer, but was \"" + role + "\"");
        };
    }

    /**
     * One input item in the neutral model: a part of the system prompt, a message of its own (read
     * from the item alone), parts that join the turn before them when it is of their role, or nothing
     * the other dialects take (earlier reasoning, a stored item, a custom or built-in tool's item),
     * riding with a message that counts {@code counted} for it ({@code null}: nothing).
     */
    private record Item(String system, ChatMessage message, Role joiningRole, List<ContentPart> joiningParts,
                        ContentPart counted) {
        static final Item NOTHING = new Item(null, null, null, List.of(), null);

        static Item joining(Role role, ContentPart part) {
            return new Item(null, null, role, List.of(part), null);
        }

        /**
         * Adds this item, read from {@code json}, to {@code messages} or {@code systemParts}. An item
         * of nothing is kept in {@code unread} until a message takes it into its origin, so that a
         * rewrite within the Responses API sends it where it was (a reasoning item before its call).
         */
        void addTo(List<ChatMessage> messages, List<String> systemParts, JsonObject json, List<JsonObject> unread,
                   List<ContentPart> counted) {
            if (system != null) {
                systemParts.add(system);
            } else if (message != null) {
                // The item's own message, the same object every turn, unless unread items come with it.
                messages.add(unread.isEmpty() ? message
                        : read(message.role(), joined(counted, message.content()), unread, List.of(json)));
                unread.clear();
                counted.clear();
            } else if (!joiningParts.isEmpty()) {
                unread.add(json);
                append(messages, joiningRole, joined(counted, joiningParts), unread);
                unread.clear();
                counted.clear();
            } else {
                unread.add(json);
                if (this.counted != null) {
                    counted.add(this.counted);
                }
            }
        }
    }

    /** {@code first} then {@code then}; {@code then} itself when {@code first} is empty. */
    private static List<ContentPart> joined(List<ContentPart> first, List<ContentPart> then) {
        return first.isEmpty() ? then : Stream.concat(first.stream(), then.stream()).toList();
    }

    private static List<ContentPart> parts(FieldReader item, List<String> untranslatable) {
        Object content = item.value("content");
        if (content instanceof String text) {
            return List.of(new ContentPart.Text(text));
        }
        if (!(content instanceof JsonArray array)) {
            throw item.problem("content", "is required and must be a string or an array of content parts");
        }
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            FieldReader part = item.objectAt("content", i);
            String type = part.requiredString("type");
            switch (type) {
                case "input_text", "output_text" -> parts.add(new ContentPart.Text(part.requiredString("text")));
                case "refusal" -> parts.add(new ContentPart.Text(part.requiredString("refusal")));
                case "input_image" -> image(part, untranslatable, parts);
                case "input_file" -> {
                    ContentPart file = file(part, untranslatable);
                    if (file != null) {
                        parts.add(file);
                    } else {
                        untranslatable.add(part.path("file_id") + " (a file stored at the provider)");
                    }
                }
                case "input_audio" -> {
                    untranslatable.add(part.path("type") + " '" + type + "' parts");
                    parts.add(CountedMedia.ofOpenAiPart(part)); // untranslatable, but counted, as Chat Completions' is
                }
                default -> untranslatable.add(part.path("type") + " '" + type + "' parts");
            }
        }
        return parts;
    }

    private static void image(FieldReader part, List<String> untranslatable, List<ContentPart> parts) {
        if (part.has("image_url")) {
            parts.add(new ContentPart.Image(InlineData.url(part, "image_url", untranslatable)));
        } else if (part.has("file_id")) {
            untranslatable.add(part.path("file_id") + " (an image stored at the provider)");
        } else {
            throw part.problem("image_url", "is required when an input_image has no file_id");
        }
    }

    /** The document of an {@code input_file} given by its data or its URL; {@code null} for a stored file. */
    private static ContentPart file(FieldReader part, List<String> untranslatable) {
        String title = part.optionalString("filename");
        if (part.has("file_data")) {
            return new ContentPart.Document(InlineData.fileData(part, "file_data", untranslatable), title);
        }
        if (part.has("file_url")) {
            return new ContentPart.Document(InlineData.url(part, "file_url", untranslatable), title);
        }
        if (!part.has("file_id")) {
            throw part.problem("file_id", "is required when an input_file has no file_data or file_url");
        }
        return null;
    }

    private static String systemText(FieldReader item) {
        Object content = item.value("content");
        if (content instanceof String text) {
            return text;
        }
        if (!(content instanceof JsonArray array)) {
            throw item.problem("content", "is required and must be a string or an array of input_text parts");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < array.size(); i++) {
            FieldReader part = item.objectAt("content", i);
            String type = part.requiredString("type");
            if (!"input_text".equals(type)) {
                throw part.problem("type", "must be \"input_text\" in a system or developer message, but was \""
                        + type + "\"");
            }
            text.append(part.requiredString("text"));
        }
        return text.toString();
    }

    /** A function's output: its text parts joined, its images (and parts of other types) attached. */
    private static ContentPart.ToolResult toolResult(FieldReader item, List<String> untranslatable) {
        String callId = item.requiredString("call_id");
        Object output = item.value("output");
        if (output instanceof String text) {
            return new ContentPart.ToolResult(callId, text, false);
        }
        if (!(output instanceof JsonArray array)) {
            throw item.problem("output", "is required and must be a string or an array of content parts");
        }
        StringBuilder text = new StringBuilder();
        List<ContentPart> attachments = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            FieldReader part = item.objectAt("output", i);
            String type = part.requiredString("type");
            if ("input_text".equals(type)) {
                text.append(part.requiredString("text"));
            } else if ("input_image".equals(type)) {
                image(part, untranslatable, attachments);
            } else {
                ContentPart file = "input_file".equals(type) ? file(part, untranslatable) : null;
                if (file == null) {
                    untranslatable.add(part.path("type") + " '" + type + "' inside a function_call_output");
                }
                attachments.add(file != null ? file : new ContentPart.Opaque(part.json().encode())); // kept for its own dialect
            }
        }
        return new ContentPart.ToolResult(callId, text.toString(), false, attachments);
    }

    /**
     * Adds {@code parts}, read from the items {@code origin}, to the last message when it is a turn of
     * {@code role} that they may join (tool calls and assistant text join assistant turns; tool results
     * join turns of tool results only), else as a message of their own.
     */
    private static void append(List<ChatMessage> messages, Role role, List<ContentPart> parts, List<JsonObject> origin) {
        ChatMessage last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
        boolean joins = last != null && last.role() == role
                && (role == Role.ASSISTANT || last.content().stream()
                .allMatch(part -> part instanceof ContentPart.ToolResult || part instanceof ContentPart.Opaque));
        if (!joins) {
            messages.add(read(role, parts, List.of(), origin));
            return;
        }
        List<ContentPart> content = new ArrayList<>(last.content());
        content.addAll(parts);
        messages.set(messages.size() - 1, read(role, content, origin(last), origin));
    }
}
