package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatMessage.Role;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.provider.InlineData;
import io.vertx.core.json.JsonArray;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses one message of an Anthropic Messages request into the neutral model, block by block, for
 * {@link AnthropicRequestParser}: text, images and documents (base64 or by URL), tool calls, and tool
 * results with their text joined and their images and documents attached; earlier thinking dropped;
 * any other block, and a document or image the other dialects cannot take, kept as an opaque block
 * and named as untranslatable. Stateless and thread-safe.
 */
final class AnthropicMessageParser {

    private static final Set<String> DROPPED_BLOCKS = Set.of("thinking", "redacted_thinking");
    /** The fields of a document that crosses dialects: its cache mark is dropped as everywhere. */
    private static final Set<String> PORTABLE_DOCUMENT_FIELDS = Set.of("type", "source", "title", "cache_control");

    private AnthropicMessageParser() {
    }

    /** One message of {@code messages}, its untranslatable parts named in {@code untranslatable}. */
    static ChatMessage parse(FieldReader message, List<String> untranslatable) {
        String roleName = message.requiredString("role");
        Role role = switch (roleName) {
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            default -> throw message.problem("role", "must be \"user\", \"assistant\" or \"system\", but was \""
                    + roleName + "\"");
        };
        return new ChatMessage(role, content(message, role, untranslatable), AnthropicDialect.INSTANCE,
                List.of(message.json()));
    }

    private static List<ContentPart> content(FieldReader message, Role role, List<String> untranslatable) {
        Object content = message.value("content");
        if (content instanceof String text) {
            return List.of(new ContentPart.Text(text));
        }
        if (!(content instanceof JsonArray blocks)) {
            throw message.problem("content", "is required and must be a string or an array of content blocks");
        }
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            FieldReader block = message.objectAt("content", i);
            String type = block.requiredString("type");
            switch (type) {
                case "text" -> parts.add(new ContentPart.Text(block.requiredString("text")));
                case "image" -> image(block, untranslatable, parts);
                case "document" -> document(block, untranslatable, parts);
                case "tool_use" -> {
                    requireRole(block, type, role, Role.ASSISTANT);
                    parts.add(new ContentPart.ToolCall(block.requiredString("id"), block.requiredString("name"),
                            block.requiredObject("input").json().encode()));
                }
                case "tool_result" -> {
                    requireRole(block, type, role, Role.USER);
                    parts.add(toolResult(block, untranslatable));
                }
                default -> {
                    if (!DROPPED_BLOCKS.contains(type)) {
                        untranslatable.add(block.path("type") + " '" + type + "' blocks");
                        parts.add(new ContentPart.Opaque(block.json().encode())); // counted, and kept for its own dialect
                    }
                }
            }
        }
        return parts;
    }

    private static void image(FieldReader block, List<String> untranslatable, List<ContentPart> parts) {
        FieldReader source = block.requiredObject("source");
        String type = source.requiredString("type");
        switch (type) {
            case "base64" -> parts.add(new ContentPart.Image(InlineData.of(source, "media_type", "data")));
            case "url" -> parts.add(new ContentPart.Image(InlineData.url(source, "url", untranslatable)));
            default -> {
                untranslatable.add(source.path("type") + " '" + type + "' image sources");
                parts.add(new ContentPart.Opaque(block.json().encode())); // kept for its own dialect
            }
        }
    }

    /**
     * A document of base64 data or by URL, with at most a title: one that asks for citations (which
     * the answer would carry), gives context, or is text, content or a file id is Anthropic's own.
     */
    private static void document(FieldReader block, List<String> untranslatable, List<ContentPart> parts) {
        FieldReader source = block.requiredObject("source");
        String type = source.requiredString("type");
        String title = block.optionalString("title");
        String own = block.json().fieldNames().stream().filter(field -> !PORTABLE_DOCUMENT_FIELDS.contains(field))
                .findFirst().orElse(null);
        if (own == null && "base64".equals(type)) {
            parts.add(new ContentPart.Document(InlineData.of(source, "media_type", "data"), title));
        } else if (own == null && "url".equals(type)) {
            parts.add(new ContentPart.Document(InlineData.url(source, "url", untranslatable), title));
        } else {
            untranslatable.add(own == null ? source.path("type") + " '" + type + "' document sources"
                    : block.path(own) + " of a document (Anthropic's own)");
            parts.add(new ContentPart.Opaque(block.json().encode())); // kept for its own dialect
        }
    }

    /** A tool result: its text blocks joined by newlines; its images, documents and any other block attached. */
    private static ContentPart.ToolResult toolResult(FieldReader block, List<String> untranslatable) {
        String id = block.requiredString("tool_use_id");
        boolean isError = Boolean.TRUE.equals(block.optionalBoolean("is_error"));
        Object content = block.value("content");
        if (content == null || content instanceof String) {
            return new ContentPart.ToolResult(id, content == null ? "" : (String) content, isError);
        }
        if (!(content instanceof JsonArray items)) {
            throw block.problem("content", "must be a string or an array of content blocks");
        }
        StringBuilder text = new StringBuilder();
        List<ContentPart> attachments = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            FieldReader item = block.objectAt("content", i);
            String type = item.requiredString("type");
            if ("text".equals(type)) {
                text.append(text.length() == 0 ? "" : "\n").append(item.requiredString("text"));
            } else if ("image".equals(type)) {
                image(item, untranslatable, attachments);
            } else if ("document".equals(type)) {
                document(item, untranslatable, attachments);
            } else {
                untranslatable.add(item.path("type") + " '" + type + "' inside a tool result");
                attachments.add(new ContentPart.Opaque(item.json().encode())); // kept for its own dialect
            }
        }
        return new ContentPart.ToolResult(id, text.toString(), isError, attachments);
    }

    private static void requireRole(FieldReader block, String type, Role actual, Role expected) {
        if (actual != expected) {
            throw block.problem("type", "'" + type + "' blocks belong in " + expected.name().toLowerCase()
                    + " messages, not " + actual.name().toLowerCase() + " messages");
        }
    }
}
