package io.agentfuse.gateway.sse;

import io.vertx.core.buffer.Buffer;

/**
 * Cuts a provider's streamed answer into events, fed its body's buffers as they arrive in any
 * split: server-sent events ({@link SseParser}) for most providers, AWS's binary event stream for
 * Bedrock. Each complete event goes to the sink the framing was made with, from inside {@link #feed}
 * or {@link #end}.
 *
 * <p>A framing bounds what it buffers: an event longer than its bound fails with
 * {@link SseEventTooLongException}; bytes that are not of its format fail with the format's own
 * exception. Not thread-safe: one per stream, fed from one thread at a time.
 */
public interface EventFraming {

    /** Takes the next piece of the body, handing every event it completes to the sink. */
    void feed(Buffer chunk);

    /** The body has ended: a last event the format allows to end without its terminator is handed over. */
    void end();

    /** The bound on one event, for a framing that counts the bytes it holds for an unfinished one. */
    static SseEventTooLongException tooLong(long buffered, int maxEventBytes) {
        return new SseEventTooLongException("an event of more than " + maxEventBytes + " bytes (" + buffered
                + " buffered)");
    }
}
