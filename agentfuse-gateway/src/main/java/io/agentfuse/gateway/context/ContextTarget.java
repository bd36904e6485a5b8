package io.agentfuse.gateway.context;

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
}
