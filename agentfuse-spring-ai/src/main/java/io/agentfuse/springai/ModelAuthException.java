package io.agentfuse.springai;

import java.util.Objects;

/**
 * A model provider answered 401 or 403: it refused the application's key. Not retried (the same key
 * is refused again), but a fallback chain moves on to its next model, whose provider may take its
 * own key; the breaker counts it as a failure ({@code ERROR}), since the model is unusable until the
 * key is fixed.
 *
 * <p>Immutable and thread-safe; made by {@link ModelFailures}.
 */
public final class ModelAuthException extends RuntimeException implements UpstreamFailure {

    private final int status;
    private final transient RuntimeException original;

    /** A refusal with {@code status} (401 or 403), found in {@code original}. */
    public ModelAuthException(int status, RuntimeException original) {
        super("HTTP " + status + ": the provider refused the API key", null, false, false);
        this.status = status;
        this.original = Objects.requireNonNull(original, "original");
    }

    /** 401 or 403. */
    public int status() {
        return status;
    }

    @Override
    public RuntimeException original() {
        return original;
    }
}
