package io.agentfuse.gateway.upstream;

import java.net.SocketException;

/**
 * The connection to a provider broke: closed before or during the answer, or reset. A
 * {@link SocketException}, so that {@link io.agentfuse.core.OutcomeClassifier} counts it as a
 * {@code CONNECTION_ERROR} — Vert.x reports closed connections with its own exception types,
 * which the classifier would otherwise see as a generic {@code ERROR}.
 *
 * <p>Immutable; the Vert.x or Netty exception is kept as the cause.
 */
public final class UpstreamConnectionException extends SocketException {

    /**
     * @param message what happened, naming the provider
     * @param cause   the underlying exception, or {@code null}
     */
    public UpstreamConnectionException(String message, Throwable cause) {
        super(message);
        if (cause != null) {
            initCause(cause);
        }
    }
}
