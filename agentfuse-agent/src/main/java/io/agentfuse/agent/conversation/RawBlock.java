package io.agentfuse.agent.conversation;

import java.util.Objects;

/**
 * A block this module does not interpret (an image, a document, a thinking block), kept as the
 * provider's JSON so that it goes back out unchanged. Immutable.
 *
 * <p>Token counters measure an image ({@link #IMAGE}) by its size in pixels, read from the head of
 * its base64 data ({@code ImageTokens}; {@code TokenCounter.IMAGE_TOKENS} when it cannot be read),
 * a document ({@link #DOCUMENT}) by its pages, guessed from its size ({@code DocumentTokens}), audio
 * ({@link #AUDIO}) and video ({@link #VIDEO}) by their seconds ({@code AudioTokens}, {@code VideoTokens}),
 * and any other block by its JSON text: erring
 * high only makes compaction start a little early.
 *
 * <pre>{@code
 * ContentBlock image = new RawBlock("image", "{\"type\":\"image\",\"source\":{...}}");
 * }</pre>
 *
 * @param type the provider's block type, such as {@code "image"}
 * @param json the whole block as JSON text
 */
public record RawBlock(String type, String json) implements ContentBlock {

    /** The type of an image block, whatever its source (base64 data, a URL, a file). */
    public static final String IMAGE = "image";

    /** The type of a document block (a PDF), counted by its pages ({@code DocumentTokens}), not its bytes. */
    public static final String DOCUMENT = "document";

    /** The type of a piece of audio, counted by its seconds ({@code AudioTokens}), not its bytes. */
    public static final String AUDIO = "audio";

    /** The type of a video, counted by its seconds ({@code VideoTokens}), not its bytes. */
    public static final String VIDEO = "video";

    /** @throws NullPointerException if any argument is null */
    public RawBlock {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(json, "json");
    }
}
