package io.agentfuse.gateway.pipeline;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one request's chain did so far, for the response headers: how many upstream attempts it
 * made over all steps ({@code x-agentfuse-attempts}), and which step was tried last (named in
 * {@code x-agentfuse-model} when an upstream 4xx is passed through).
 *
 * <p>Thread-safe, though a request's attempts normally all run on its own event loop.
 */
final class CallTrace {

    private final AtomicInteger attempts = new AtomicInteger();
    private volatile String lastModel;
    private volatile boolean abandoned;

    void attemptStarted(String model) {
        lastModel = model;
        attempts.incrementAndGet();
    }

    int attempts() {
        return attempts.get();
    }

    /** The exchange gave up on the chain (caller gone, deadline): a cancelled attempt is not a timeout then. */
    void abandon() {
        abandoned = true;
    }

    boolean abandoned() {
        return abandoned;
    }

    /** The model of the latest attempt, or {@code null} before the first. */
    String lastModel() {
        return lastModel;
    }
}
