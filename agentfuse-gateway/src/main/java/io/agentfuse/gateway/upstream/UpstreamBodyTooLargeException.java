package io.agentfuse.gateway.upstream;

/**
 * A provider sent more than the gateway reads of one answer ({@code server.maxUpstreamBody}) or
 * of one stream event ({@code server.maxSseEvent}). Reading stopped and the connection was
 * closed; the attempt fails as an {@code ERROR}, so it is retried or fallen back like any broken
 * answer.
 *
 * <p>Immutable.
 */
public final class UpstreamBodyTooLargeException extends RuntimeException {

    /** @param message what was too large, naming the provider and the limit */
    public UpstreamBodyTooLargeException(String message) {
        super(message);
    }
}
