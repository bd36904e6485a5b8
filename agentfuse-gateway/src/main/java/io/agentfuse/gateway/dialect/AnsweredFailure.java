package io.agentfuse.gateway.dialect;

import java.util.List;
import java.util.Map;

/**
 * A failed attempt that the provider answered (an error status, a refusal of the gateway's
 * credentials, a malformed 2xx): the answer's headers, cleared of secrets, are kept so that the
 * gateway's own error can carry the provider's request id, which the caller quotes to the provider's
 * support (docs/design.md §7, {@code x-agentfuse-provider-request-id}).
 *
 * <pre>{@code
 * if (failure instanceof AnsweredFailure answered) {
 *     ProviderHeaders.passRequestId(answered.answerHeaders(), response.headers());
 * }
 * }</pre>
 */
public interface AnsweredFailure {

    /** The answer's headers as received, in order; empty when none were kept. */
    List<Map.Entry<String, String>> answerHeaders();

    /**
     * What the provider refused of the gateway's configuration, as {@code x-agentfuse-fallbacks} tells it
     * beside the outcome ({@code gpt-5=ERROR(HTTP 404 model refused)}); {@code null} for an answer its status
     * alone tells.
     */
    default String refusalNote() {
        return null;
    }
}
