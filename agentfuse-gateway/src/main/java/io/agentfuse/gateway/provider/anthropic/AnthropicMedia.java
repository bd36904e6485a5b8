package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.ClaudeMediaCount;
import io.agentfuse.gateway.provider.MediaTokens;

/**
 * The images and documents of one Messages request written for Anthropic, checked against what the
 * Messages API takes in a request: so many images and document pages together, by the model's window,
 * and no PDF of more than 100 pages ({@link ClaudeMediaCount}); no image of more than {@value #MAX_SIDE}
 * pixels a side, or of more than {@value #MAX_SIDE_OF_MANY} in a request of more than {@value #MANY_IMAGES}
 * images ("At least one of the image dimensions exceed max allowed size for many-image requests: 2000
 * pixels"), its size read from the head of its data (one whose size cannot be read is let through); and
 * no image of more than {@value #MAX_IMAGE_BASE64} characters of base64 ({@code "image exceeds 5 MB
 * maximum: 5397204 bytes > 5242880 bytes"}: the limit is on the base64, not the image's bytes). More is
 * refused 400, which would end the fallback chain: the step is untranslatable instead, and the chain
 * goes on to the next model.
 *
 * <p>One instance per request written; not thread-safe.
 * {@code AnthropicMedia media = new AnthropicMedia(200_000); media.image(MediaSource.of("data:image/png;base64,iVBOR...")); media.document(pdf);}
 */
final class AnthropicMedia {

    /** The most pixels a side of an image the Messages API takes. */
    static final int MAX_SIDE = 8_000;
    /** The most pixels a side of an image in a request of more than {@value #MANY_IMAGES} images. */
    static final int MAX_SIDE_OF_MANY = 2_000;
    /** The images past which a request is a many-image request. */
    static final int MANY_IMAGES = 20;
    /** The most characters of base64 an image may have. */
    static final int MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

    private final ClaudeMediaCount count;
    /** The longest side of any image of the request so far, in pixels; -1 while none could be read. */
    private int longestSide = -1;

    /** The media of a request to a model of {@code contextWindow} tokens. */
    AnthropicMedia(long contextWindow) {
        this.count = new ClaudeMediaCount(contextWindow);
    }

    /**
     * Counts the image of {@code source}.
     *
     * @throws UntranslatableException beyond the request's images and pages, or for an image larger than
     *                                 the request's images may be, in pixels or in base64
     */
    void image(MediaSource source) {
        count.image();
        int base64 = source instanceof MediaSource.Inline inline ? inline.base64Length() : 0;
        if (base64 > MAX_IMAGE_BASE64) {
            throw new UntranslatableException("an image of " + base64 + " characters of base64 (Anthropic takes "
                    + MAX_IMAGE_BASE64 + ")");
        }
        int side = MediaTokens.longestSide(source);
        if (side > MAX_SIDE) {
            throw new UntranslatableException("an image of " + side + " pixels a side (Anthropic takes " + MAX_SIDE + ")");
        }
        longestSide = Math.max(longestSide, side);
        if (count.images() > MANY_IMAGES && longestSide > MAX_SIDE_OF_MANY) {
            throw new UntranslatableException("more than " + MANY_IMAGES + " images, one of " + longestSide
                    + " pixels a side (Anthropic takes " + MAX_SIDE_OF_MANY + " in a request of more than " + MANY_IMAGES + ")");
        }
    }

    /**
     * Counts the document of {@code source} by its pages.
     *
     * @throws UntranslatableException for a PDF of more than 100 pages, or beyond the request's images and pages
     */
    void document(MediaSource source) {
        count.document(source);
    }
}
