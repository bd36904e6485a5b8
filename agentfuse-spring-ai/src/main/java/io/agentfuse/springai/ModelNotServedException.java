package io.agentfuse.springai;

import java.util.Objects;

/**
 * A model provider answered 404: it serves no model of the name the application asked for (a model the
 * provider retired, a misspelt name) or no endpoint at its base URL — the application's configuration,
 * not the prompt. As for a refused key ({@link ModelAuthException}): not retried (the same name is
 * refused again), but a fallback chain moves on to its next model, and the breaker counts it as a
 * failure ({@code ERROR}), so that a retired model stops costing a call per request. The gateway treats a
 * provider's "no such model" alike.
 *
 * <p>Immutable and thread-safe; made by {@link ModelFailures}.
 */
public final class ModelNotServedException extends RuntimeException implements UpstreamFailure {

    /** The most of the provider's answer quoted in the message. */
    static final int MAX_QUOTED = 300;

    private final transient RuntimeException original;

    /** A 404 whose answer said {@code body} ({@code null}: nothing), found in {@code original}. */
    public ModelNotServedException(String body, RuntimeException original) {
        super("HTTP 404: the provider serves no such model or endpoint (check the model name and base URL)"
                + (body == null || body.isBlank() ? "" : ": " + quoted(body.strip())), null, false, false);
        this.original = Objects.requireNonNull(original, "original");
    }

    @Override
    public RuntimeException original() {
        return original;
    }

    private static String quoted(String body) {
        return body.length() <= MAX_QUOTED ? body : body.substring(0, MAX_QUOTED) + "…";
    }
}
