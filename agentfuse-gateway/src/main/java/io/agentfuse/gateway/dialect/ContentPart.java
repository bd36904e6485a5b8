package io.agentfuse.gateway.dialect;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Objects;

/**
 * One piece of a message's content in the neutral model: text, an image, a document, a tool call
 * the assistant made, or the result of one that the caller sends back.
 *
 * <p>All implementations are immutable records.
 *
 * <pre>{@code
 * new ChatMessage(Role.ASSISTANT, List.of(new ContentPart.ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}")));
 * new ChatMessage(Role.USER, List.of(new ContentPart.ToolResult("call_1", "18°C", false)));
 * }</pre>
 */
public sealed interface ContentPart {

    /** Plain text. */
    record Text(String text) implements ContentPart {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * An image: its data ({@link MediaSource.Inline}, a media type and base64, as Anthropic's and
     * Gemini's {@code base64} sources and OpenAI's {@code data:} URLs carry it) or its address.
     */
    record Image(MediaSource source) implements ContentPart {
        public Image {
            Objects.requireNonNull(source, "source");
        }

        /** The image at {@code url}: an address, or a {@code data:<media type>;base64,<data>} URL ({@link MediaSource#of}). */
        public Image(String url) {
            this(MediaSource.of(url));
        }
    }

    /**
     * A document (a PDF an agent read): its data ({@link MediaSource.Inline}) or its address
     * ({@code https://…}, a PDF). {@code title} is the caller's name for it, or {@code null}.
     */
    record Document(MediaSource source, String title) implements ContentPart {
        public Document {
            Objects.requireNonNull(source, "source");
        }

        /** The document at {@code url}: an address, or a {@code data:} URL ({@link MediaSource#of}). */
        public Document(String url, String title) {
            this(MediaSource.of(url), title);
        }

        /**
         * The media type of the document's data, or of a {@code data:} URL that is not base64;
         * {@code application/pdf} for one by address.
         */
        public String mediaType() {
            if (source instanceof MediaSource.Inline inline) {
                return inline.mediaType();
            }
            String url = source.url();
            int end = url.indexOf(';');
            return source.isData() && end > MediaSource.DATA.length() ? url.substring(MediaSource.DATA.length(), end)
                    : "application/pdf";
        }
    }

    /** A call of tool {@code name}; {@code arguments} is JSON text (an object). */
    record ToolCall(String id, String name, String arguments) implements ContentPart {
        public ToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }

        /**
         * The arguments as a JSON object, as Anthropic carries them; blank arguments (which
         * OpenAI streams send for argument-less calls) count as {@code {}}.
         *
         * @throws UntranslatableException when the arguments are not a JSON object
         */
        public JsonObject argumentsAsObject() {
            if (arguments.isBlank()) {
                return new JsonObject();
            }
            try {
                if (Json.decodeValue(arguments) instanceof JsonObject object) {
                    return object;
                }
            } catch (DecodeException e) {
                // reported below, with the call it belongs to
            }
            throw new UntranslatableException("arguments of tool call " + id + " (" + name + ") are not a JSON object");
        }
    }

    /**
     * A piece of audio (a Gemini {@code inlineData} or {@code fileData} part of an {@code audio/*} type,
     * an OpenAI {@code input_audio} part): its data when it is at hand, else its address; carried only
     * so that the context ladder and the token counts count it (by its seconds), since no other dialect
     * takes it the same way. A request holding one is untranslatable across dialects and goes as it
     * came within its own, so no writer writes it.
     */
    record Audio(MediaSource source) implements ContentPart {
        public Audio {
            Objects.requireNonNull(source, "source");
        }

        /** The audio at {@code url}: an address, or a {@code data:} URL ({@link MediaSource#of}). */
        public Audio(String url) {
            this(MediaSource.of(url));
        }
    }

    /**
     * A video (a Gemini {@code inlineData} or {@code fileData} part of a {@code video/*} type, a
     * YouTube link): carried, as {@link Audio} is, only so that the context ladder and the token
     * counts count it (by its seconds); a request holding one is untranslatable across dialects.
     */
    record Video(MediaSource source) implements ContentPart {
        public Video {
            Objects.requireNonNull(source, "source");
        }

        /** The video at {@code url}: an address, or a {@code data:} URL ({@link MediaSource#of}). */
        public Video(String url) {
            this(MediaSource.of(url));
        }
    }

    /**
     * A content block of the caller's dialect that the neutral model does not carry (a document that
     * asks for citations, a search result, a server tool's result, a block type newer than the
     * gateway), kept as its JSON: the context
     * ladder counts it as text, and it is written back only in its own dialect (a request holding
     * one is untranslatable to the other).
     */
    record Opaque(String json) implements ContentPart {
        public Opaque {
            Objects.requireNonNull(json, "json");
        }
    }

    /**
     * The result of tool call {@code toolCallId}: its text, {@code isError} when the tool failed, and
     * what it returned beside the text as {@code attachments} — {@link Image}s (the screenshot a
     * tool took, the picture a file read returned) and {@link Document}s (a PDF it read), which every
     * dialect carries in its own way, and {@link Opaque} blocks, which only their own dialect does;
     * {@link Audio} and {@link Video} too (a Gemini function response's recording), only counted.
     */
    record ToolResult(String toolCallId, String content, boolean isError, List<ContentPart> attachments)
            implements ContentPart {
        public ToolResult {
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(content, "content");
            attachments = List.copyOf(attachments);
            for (ContentPart attachment : attachments) {
                if (!(attachment instanceof Image || attachment instanceof Document || attachment instanceof Opaque
                        || attachment instanceof Audio || attachment instanceof Video)) {
                    throw new IllegalArgumentException("a tool result attaches images, documents, audio, video and opaque "
                            + "blocks, not " + attachment.getClass().getSimpleName());
                }
            }
        }

        /** A result of text alone. */
        public ToolResult(String toolCallId, String content, boolean isError) {
            this(toolCallId, content, isError, List.of());
        }

        /**
         * The text for a dialect whose tool results have no error flag (OpenAI's Chat Completions and
         * Responses): prefixed {@code "Error: "} when the tool failed.
         */
        public String flaggedText() {
            return isError ? "Error: " + content : content;
        }

        /**
         * The attachments, every one an {@link Image} or a {@link Document}: what a dialect other
         * than the caller's can write.
         *
         * @throws UntranslatableException when one is an {@link Opaque} block of the caller's dialect, or
         *                                 audio or video, which no other dialect takes the same way
         */
        public List<ContentPart> media() {
            for (ContentPart attachment : attachments) {
                if (attachment instanceof Opaque || attachment instanceof Audio || attachment instanceof Video) {
                    throw new UntranslatableException("a block inside the result of tool call " + toolCallId
                            + " that only its own dialect carries");
                }
            }
            return attachments;
        }
    }
}
