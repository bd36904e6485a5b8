package io.agentfuse.gateway.upstream;

import io.agentfuse.core.HttpStatusException;

import java.util.Map;
import java.util.Optional;

/**
 * A provider's non-2xx answer, with the content type it came with, so that an upstream 4xx can
 * be passed back to the caller unchanged (status, body and content type). Classified by
 * {@link io.agentfuse.core.OutcomeClassifier} like any {@link HttpStatusException}.
 *
 * <p>Immutable; no stack trace.
 *
 * <pre>{@code
 * throw UpstreamStatusException.builder(503).body(body).retryAfter("2").contentType("application/json").build();
 * // later, where the answer is judged:
 * if (failure instanceof UpstreamStatusException answer && answer.status() / 100 == 4) {
 *     response.setStatusCode(answer.status()).putHeader("content-type", answer.contentType().orElse("application/json"))
 *             .end(answer.body().orElse(""));
 * }
 * }</pre>
 */
public final class UpstreamStatusException extends HttpStatusException {

    private final String contentType;

    private UpstreamStatusException(Builder builder) {
        super(builder);
        this.contentType = builder.contentType;
    }

    /** A builder for a provider's answer with {@code status}; everything else is optional. */
    public static Builder builder(int status) {
        return new Builder(status);
    }

    /** The content type of the body, if the provider named one. */
    public Optional<String> contentType() {
        return Optional.ofNullable(contentType);
    }

    /** Collects a provider's failed answer; {@code null} values are ignored. Not thread-safe. */
    public static final class Builder extends HttpStatusException.Builder {
        private String contentType;

        private Builder(int status) {
            super(status);
        }

        /** The {@code Content-Type} header of the body. */
        public Builder contentType(String contentType) {
            this.contentType = contentType;
            return this;
        }

        @Override
        public Builder body(String body) {
            super.body(body);
            return this;
        }

        @Override
        public Builder retryAfter(String retryAfter) {
            super.retryAfter(retryAfter);
            return this;
        }

        @Override
        public Builder retryAfterMs(String retryAfterMs) {
            super.retryAfterMs(retryAfterMs);
            return this;
        }

        @Override
        public Builder retryHints(Iterable<? extends Map.Entry<String, String>> headers) {
            super.retryHints(headers);
            return this;
        }

        @Override
        public Builder shouldRetry(Boolean shouldRetry) {
            super.shouldRetry(shouldRetry);
            return this;
        }

        @Override
        public Builder header(String name, String value) {
            super.header(name, value);
            return this;
        }

        @Override
        public UpstreamStatusException build() {
            return new UpstreamStatusException(this);
        }
    }
}
