package io.agentfuse.gateway.upstream;

import io.agentfuse.core.timeout.CallTimeoutException;

import java.time.Duration;

/**
 * One of a streamed call's two limits ({@link StreamTimeouts}) ran out, said in the words of that
 * limit and its key: a stream that stalls after its first events did finish nothing "within" its idle
 * limit, it went silent for it. A {@link CallTimeoutException}, so it is a {@code TIMEOUT} like any other.
 *
 * <p>Immutable; no stack trace.
 */
final class StreamTimeoutException extends CallTimeoutException {

    private StreamTimeoutException(String message, Duration limit) {
        super(message, limit);
    }

    /** No event came within {@code limit} of the request ({@code firstTokenTimeout}). */
    static StreamTimeoutException firstEvent(Duration limit) {
        return new StreamTimeoutException("the stream sent no event within " + limit.toMillis()
                + " ms of the request (firstTokenTimeout)", limit);
    }

    /** The running stream sent nothing for {@code limit} ({@code streamIdleTimeout}). */
    static StreamTimeoutException idle(Duration limit) {
        return new StreamTimeoutException("the stream sent nothing for " + limit.toMillis()
                + " ms after its last event (streamIdleTimeout)", limit);
    }
}
