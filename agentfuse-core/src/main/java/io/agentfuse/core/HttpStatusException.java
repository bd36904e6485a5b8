package io.agentfuse.core;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A call that ended with a non-2xx HTTP status. Throw it from a guarded call (or wrap your
 * client's exception in it) so that {@link OutcomeClassifier} can classify by status and the
 * retry policy can honour the server's wait ({@code Retry-After}, {@code retry-after-ms},
 * {@code x-ratelimit-reset-*}, {@code anthropic-ratelimit-*-reset}; see {@link RetryAfter}).
 *
 * <p>Immutable and thread-safe. The stack trace is not filled in: these exceptions are expected,
 * frequent, and their origin is the remote server, not this thread.
 *
 * <pre>{@code
 * if (response.statusCode() >= 400) {
 *     throw HttpStatusException.builder(response.statusCode())
 *             .body(response.body())
 *             .header("retry-after", response.headers().firstValue("retry-after").orElse(null))
 *             .build();
 * }
 * }</pre>
 */
public class HttpStatusException extends RuntimeException {

    /** The header with which OpenAI and Anthropic tell their SDKs whether to retry. */
    public static final String SHOULD_RETRY = "x-should-retry";
    /** The standard wait header: delta-seconds or an HTTP date. */
    public static final String RETRY_AFTER = "retry-after";
    /** The wait in milliseconds that OpenAI and Anthropic send beside {@code Retry-After}. */
    public static final String RETRY_AFTER_MS = "retry-after-ms";

    private final int status;
    private final String body;
    private final Boolean shouldRetry;
    private final Map<String, String> headers;

    /** Made by {@link Builder#build()}, or by a subclass from its own builder. */
    protected HttpStatusException(Builder builder) {
        super("HTTP " + builder.status + (builder.body == null || builder.body.isEmpty() ? "" : ": " + abbreviate(builder.body)),
                null, false, false);
        this.status = builder.status;
        this.body = builder.body;
        this.shouldRetry = builder.shouldRetry;
        this.headers = Map.copyOf(builder.headers);
    }

    /** An exception for {@code status} without body or retry hints. */
    public HttpStatusException(int status) {
        this(builder(status));
    }

    /** A builder for an answer with {@code status}; everything else is optional. */
    public static Builder builder(int status) {
        return new Builder(status);
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }

    /** The response body, if any. */
    public Optional<String> body() {
        return Optional.ofNullable(body);
    }

    /** The raw {@code Retry-After} header, if any. */
    public Optional<String> retryAfter() {
        return header(RETRY_AFTER);
    }

    /** The raw {@code retry-after-ms} header, if any. */
    public Optional<String> retryAfterMs() {
        return header(RETRY_AFTER_MS);
    }

    /** A header kept from the answer (names are case-insensitive), if present. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    /** Every header kept from the answer, names in lower case. */
    public Map<String, String> headers() {
        return headers;
    }

    /** The server's {@code x-should-retry} verdict, if it gave one. */
    public Optional<Boolean> shouldRetry() {
        return Optional.ofNullable(shouldRetry);
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }

    /** Collects an HTTP failure; {@code null} values are ignored. Not thread-safe. */
    public static class Builder {
        private final int status;
        private String body;
        private Boolean shouldRetry;
        private final Map<String, String> headers = new TreeMap<>();

        /** A builder for {@code status}; subclasses extend it for their own exceptions. */
        protected Builder(int status) {
            if (status < 100 || status > 999) {
                throw new IllegalArgumentException("status must be in [100, 999], but was " + status);
            }
            this.status = status;
        }

        /** The response body. */
        public Builder body(String body) {
            this.body = body;
            return this;
        }

        /** The {@code Retry-After} header: delta-seconds or an HTTP date. */
        public Builder retryAfter(String retryAfter) {
            return header(RETRY_AFTER, retryAfter);
        }

        /** The {@code retry-after-ms} header. */
        public Builder retryAfterMs(String retryAfterMs) {
            return header(RETRY_AFTER_MS, retryAfterMs);
        }

        /** The {@code x-should-retry} header as a boolean. */
        public Builder shouldRetry(Boolean shouldRetry) {
            this.shouldRetry = shouldRetry;
            return this;
        }

        /**
         * What an answer's {@code headers} say about retrying: every header {@link RetryAfter} reads
         * ({@code Retry-After}, {@code retry-after-ms}, the rate-limit headers), and
         * {@code x-should-retry}, read as the OpenAI and Anthropic SDKs read it ({@code true} or
         * {@code false}; anything else is no verdict). Other headers are left out.
         */
        public Builder retryHints(Iterable<? extends Map.Entry<String, String>> headers) {
            for (Map.Entry<String, String> header : headers) {
                String name = header.getKey();
                if (RetryAfter.readsHeader(name)) {
                    header(name, header.getValue());
                } else if (name.equalsIgnoreCase(SHOULD_RETRY)) {
                    String verdict = header.getValue().trim();
                    shouldRetry(verdict.equalsIgnoreCase("true") ? Boolean.TRUE
                            : verdict.equalsIgnoreCase("false") ? Boolean.FALSE : null);
                }
            }
            return this;
        }

        /** Any answer header worth keeping, e.g. {@code x-ratelimit-reset-requests}; names are case-insensitive. */
        public Builder header(String name, String value) {
            if (name != null && value != null) {
                headers.put(name.toLowerCase(Locale.ROOT), value);
            }
            return this;
        }

        /** The exception. */
        public HttpStatusException build() {
            return new HttpStatusException(this);
        }
    }
}
