package io.agentfuse.gateway.context;

import java.util.Objects;

/**
 * The model a request is about to be sent to, as far as its context window is concerned.
 *
 * @param model         the configured model name
 * @param upstreamModel what the provider calls it, which picks the token counter
 * @param contextWindow its window in tokens
 */
public record ContextTarget(String model, String upstreamModel, long contextWindow) {

    /** Validates the window. */
    public ContextTarget {
        if (contextWindow < 1) {
            throw new IllegalArgumentException("contextWindow must be >= 1, but was " + contextWindow);
        }
    }

    // Written out: every request looks its ladder up by its target, and a record's generated
    // equals and hashCode go through method handles that cost more than the comparison.
    @Override
    public boolean equals(Object other) {
        return other instanceof ContextTarget that && contextWindow == that.contextWindow
                && Objects.equals(model, that.model) && Objects.equals(upstreamModel, that.upstreamModel);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Objects.hashCode(model) + Objects.hashCode(upstreamModel)) + Long.hashCode(contextWindow);
    }
}
