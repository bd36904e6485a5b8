package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.UntranslatableException;

/**
 * An inline image or document of the neutral model, a {@code data:<media type>;base64,<data>} URL
 * ({@link io.agentfuse.gateway.dialect.ContentPart.Image}, {@link io.agentfuse.gateway.dialect.ContentPart.Document}),
 * taken apart for the dialects that carry the media type and the bytes separately (Anthropic's
 * {@code base64} sources, Gemini's {@code inlineData}, Bedrock's {@code bytes}).
 *
 * <p>Immutable. {@code InlineData.of("data:image/png;base64,iVBOR")} is {@code image/png} and {@code iVBOR}.
 *
 * @param mediaType the media type ({@code image/png})
 * @param base64    the base64 data
 */
public record InlineData(String mediaType, String base64) {

    /**
     * The parts of {@code url}, or {@code null} when it is not a {@code data:} URL (an image or document by address).
     *
     * @throws UntranslatableException when it is a {@code data:} URL that is not base64
     */
    public static InlineData of(String url) {
        if (!url.startsWith("data:")) {
            return null;
        }
        int comma = url.indexOf(',');
        String header = comma < 0 ? "" : url.substring(5, comma);
        if (!header.endsWith(";base64")) {
            throw new UntranslatableException("a data URL that is not base64");
        }
        return new InlineData(header.substring(0, header.length() - ";base64".length()), url.substring(comma + 1));
    }
}
