package io.agentfuse.gateway.sse;

/**
 * A line, or the data of one event, went past the parser's bound ({@code server.maxSseEvent}).
 *
 * <p>Its own type, not {@link IllegalStateException}: the parser calls its event sink from inside
 * {@link SseParser#feed}, and a reader that caught a general exception there would take a failure
 * of the sink (the relay writing to its client, say) for an over-long event from the provider.
 */
public final class SseEventTooLongException extends RuntimeException {

    SseEventTooLongException(String message) {
        super(message);
    }
}
