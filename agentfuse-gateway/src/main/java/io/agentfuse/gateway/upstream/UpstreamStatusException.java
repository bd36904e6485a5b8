package io.agentfuse.gateway.upstream;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.gateway.dialect.AnsweredFailure;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.HopByHop;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A provider's non-2xx answer, with the content type and the end-to-end headers it came with, so
 * that an upstream 4xx can be passed back to the caller (status, body, and the headers that cross:
 * the pipeline's {@code ProviderHeaders} decides). Classified by
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
public final class UpstreamStatusException extends HttpStatusException implements AnsweredFailure {

    private final String contentType;
    private final int providerStatus;
    private final List<Map.Entry<String, String>> answerHeaders;
    private final String provider;
    private final Dialect dialect;

    private UpstreamStatusException(Builder builder) {
        super(builder);
        this.provider = builder.provider;
        this.dialect = builder.dialect;
        this.contentType = builder.contentType;
        this.providerStatus = builder.providerStatus > 0 ? builder.providerStatus : status();
        this.answerHeaders = List.copyOf(builder.answerHeaders);
    }

    /** A builder for a provider's answer with {@code status}; everything else is optional. */
    public static Builder builder(int status) {
        return new Builder(status);
    }

    /**
     * The status the provider answered with; {@link #status()} is the one the gateway judges the
     * answer by, which differs where the provider's dialect classifies the answer by more than its
     * status (a Bedrock {@code ModelNotReadyException} is a 429 judged as 529, OVERLOADED).
     */
    public int providerStatus() {
        return providerStatus;
    }

    /** The name of the provider that answered, if the builder was given it. */
    public Optional<String> provider() {
        return Optional.ofNullable(provider);
    }

    /** The dialect the provider that answered speaks (its error bodies' family), if the builder was given it. */
    public Optional<Dialect> dialect() {
        return Optional.ofNullable(dialect);
    }

    /** The content type of the body, if the provider named one. */
    public Optional<String> contentType() {
        return Optional.ofNullable(contentType);
    }

    /**
     * The answer's headers as received, in order and repeated ones repeated, less those of one hop
     * ({@link HopByHop}); empty unless the builder was given them.
     */
    @Override
    public List<Map.Entry<String, String>> answerHeaders() {
        return answerHeaders;
    }

    /** Collects a provider's failed answer; {@code null} values are ignored. Not thread-safe. */
    public static final class Builder extends HttpStatusException.Builder {
        private String contentType;
        private int providerStatus;
        private final List<Map.Entry<String, String>> answerHeaders = new ArrayList<>();
        private String provider;
        private Dialect dialect;

        private Builder(int status) {
            super(status);
        }

        /** The provider that answered, by name, and the dialect it speaks. */
        public Builder provider(String name, Dialect dialect) {
            this.provider = name;
            this.dialect = dialect;
            return this;
        }

        /** Keeps the answer's end-to-end {@code headers}, for passing the answer through. */
        public Builder answerHeaders(Iterable<? extends Map.Entry<String, String>> headers) {
            HopByHop.forEachEndToEnd(headers, (name, value) -> answerHeaders.add(Map.entry(name, value)));
            return this;
        }

        /** The status the provider answered with, when the status built with is the one it is judged by. */
        public Builder providerStatus(int providerStatus) {
            this.providerStatus = providerStatus;
            return this;
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
