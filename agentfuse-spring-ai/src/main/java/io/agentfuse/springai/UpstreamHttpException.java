package io.agentfuse.springai;

import io.agentfuse.core.HttpStatusException;

import java.util.Objects;

/**
 * A model provider answered with a non-2xx status: the status, body and wait headers
 * ({@code Retry-After}, {@code retry-after-ms}, {@code x-ratelimit-reset-*}) of the client's
 * exception, so that agentfuse classifies it by status and honours the server's wait.
 *
 * <p>Immutable and thread-safe; made by {@link ModelFailures}.
 */
public final class UpstreamHttpException extends HttpStatusException implements UpstreamFailure {

    private final transient RuntimeException original;

    private UpstreamHttpException(Builder builder) {
        super(builder);
        this.original = builder.original;
    }

    /** A builder for {@code status}, made from {@code original}. */
    public static Builder builder(int status, RuntimeException original) {
        return new Builder(status, original);
    }

    @Override
    public RuntimeException original() {
        return original;
    }

    /** Collects an answer's status, body and headers; not thread-safe. */
    public static final class Builder extends HttpStatusException.Builder {
        private final RuntimeException original;

        private Builder(int status, RuntimeException original) {
            super(status);
            this.original = Objects.requireNonNull(original, "original");
        }

        @Override
        public UpstreamHttpException build() {
            return new UpstreamHttpException(this);
        }
    }
}
