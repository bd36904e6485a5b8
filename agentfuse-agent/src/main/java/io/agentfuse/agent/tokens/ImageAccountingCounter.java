package io.agentfuse.agent.tokens;

import java.util.Objects;

/**
 * Another counter's texts, with images counted by one family's {@link ImageAccounting}: what
 * {@link TokenCounter#withImages} gives. Immutable and thread-safe as its base is.
 */
final class ImageAccountingCounter implements TokenCounter {

    private final TokenCounter base;
    private final ImageAccounting images;

    ImageAccountingCounter(TokenCounter base, ImageAccounting images) {
        this.base = Objects.requireNonNull(base, "base");
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public int countText(String text) {
        return base.countText(text);
    }

    @Override
    public int upperBoundText(String text) {
        return base.upperBoundText(text);
    }

    @Override
    public int knownUpperBoundText(String text) {
        return base.knownUpperBoundText(text);
    }

    @Override
    public ImageAccounting imageAccounting() {
        return images;
    }

    /** The counter whose texts this one counts. */
    TokenCounter base() {
        return base;
    }

    @Override
    public String toString() {
        return base + " with " + images + " images";
    }
}
