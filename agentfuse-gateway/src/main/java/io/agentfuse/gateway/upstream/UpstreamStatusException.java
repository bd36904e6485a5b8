package io.agentfuse.gateway.upstream;

import io.agentfuse.core.HttpStatusException;

import java.util.Optional;

/**
 * A provider's non-2xx answer, with the content type it came with, so that an upstream 4xx can
 * be passed back to the caller unchanged (status, body and content type). Classified by
 * {@link io.agentfuse.core.OutcomeClassifier} like any {@link HttpStatusException}.
 *
 * <p>Immutable; no stack trace.
 *
 * <pre>{@code
 * if (failure instanceof UpstreamStatusException answer && answer.status() / 100 == 4) {
 *     response.setStatusCode(answer.status()).putHeader("content-type", answer.contentType().orElse("application/json"))
 *             .end(answer.body().orElse(""));
 * }
 * }</pre>
 */
public final class UpstreamStatusException extends HttpStatusException {

    private final String contentType;

    /**
     * @param status       the HTTP status
     * @param body         the body, or {@code null}
     * @param retryAfter   the {@code Retry-After} header, or {@code null}
     * @param retryAfterMs the {@code retry-after-ms} header, or {@code null}
     * @param contentType  the {@code Content-Type} header, or {@code null}
     */
    public UpstreamStatusException(int status, String body, String retryAfter, String retryAfterMs, String contentType) {
        super(status, body, retryAfter, retryAfterMs);
        this.contentType = contentType;
    }

    /** The content type of the body, if the provider named one. */
    public Optional<String> contentType() {
        return Optional.ofNullable(contentType);
    }
}
