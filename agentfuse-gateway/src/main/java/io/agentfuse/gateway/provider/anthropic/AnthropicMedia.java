package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.gateway.dialect.UntranslatableException;

/**
 * The images and documents of one Messages request written for Anthropic, counted against what the
 * Messages API takes in a request: {@value #MAX_MEDIA} images and document pages together for a model
 * of a 200 000-token window, which every Claude model of the published table is (600 for a larger
 * window; a step of one is held to the 200 000-token model's limit, the stricter). More is refused
 * 400 ({@code "Too much media: 0 document pages + 101 images > 100"}), which would end the fallback
 * chain: the step is untranslatable instead, and the chain goes on to the next model. A document counts
 * one page here, the least it can have, so that no request Anthropic takes is held back.
 *
 * <p>One instance per request written; not thread-safe.
 * {@code AnthropicMedia media = new AnthropicMedia(); media.image(); media.document();}
 */
final class AnthropicMedia {

    /** The most images and document pages the Messages API takes in a request to a 200 000-token model. */
    static final int MAX_MEDIA = 100;

    private int images;
    private int documents;

    /**
     * Counts one image.
     *
     * @throws UntranslatableException beyond the request's {@value #MAX_MEDIA} images and pages
     */
    void image() {
        images++;
        check();
    }

    /**
     * Counts one document, at one page.
     *
     * @throws UntranslatableException beyond the request's {@value #MAX_MEDIA} images and pages
     */
    void document() {
        documents++;
        check();
    }

    private void check() {
        if (images + documents > MAX_MEDIA) {
            throw new UntranslatableException("more than " + MAX_MEDIA + " images and document pages (Anthropic takes "
                    + MAX_MEDIA + " in a request): " + images + " images and " + documents + " documents");
        }
    }
}
