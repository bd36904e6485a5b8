package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.sse.SseEvent;

/**
 * Where a streamed answer stands after one event of its opening, for the call's caller: the stream
 * is handed over (and so committed to the caller) only once its answer has begun. Asked of each
 * event in order, on the call's event loop, until one begins the answer.
 */
@FunctionalInterface
public interface StreamOpening {

    /** Every event begins the answer: a stream without a preamble. */
    StreamOpening EVERY_EVENT = event -> Stage.BEGUN;

    /** Where the answer stands after {@code event}. */
    Stage after(SseEvent event);

    /**
     * What the events of a stream whose provider ended it before its answer began lacked, when that
     * makes it a malformed answer (a Gemini stream none of whose chunks had a candidate), or
     * {@code null}, by default: the stream was cut. Asked once, at that end.
     */
    default String lackedAtEnd() {
        return null;
    }

    /** Where a stream's answer stands. */
    enum Stage {
        /** The event only opens the stream (a start, a role): the first-event limit runs on. */
        PREAMBLE,
        /**
         * The model is at work on what its caller will not see (reasoning its caller's dialect cannot
         * carry): the first-event limit is met, but the answer has not begun, so a failure now is
         * still a failed attempt rather than a broken stream.
         */
        WORKING,
        /** The event carries the answer (or an error): the stream is handed over. */
        BEGUN
    }
}
