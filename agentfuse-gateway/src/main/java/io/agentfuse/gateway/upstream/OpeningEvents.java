package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.upstream.StreamOpening.Stage;

/**
 * The events of one streamed call before its answer begins, told apart by the call's
 * {@link StreamOpening} and kept for the stream's taker — within a bound: a preamble is a few events
 * (a start, a role; a Responses stream's echo of its request), so more than one event's limit
 * ({@code server.maxSseEvent}) of them is an answer that never begins, and fails the call as
 * malformed. A model at work that long (a long reasoning its caller will not see) has its stream
 * handed over instead: it is answering, and what it sent is not kept twice over.
 *
 * <p>Once a model is at work, the opening stays {@link Stage#WORKING} until the answer begins.
 * Confined to the call's event loop.
 */
final class OpeningEvents {

    /** What a kept event holds beyond its data: the event, and its place in the queue. */
    private static final int KEPT_EVENT_OVERHEAD = 64;

    private final StreamOpening opening;
    private final long maxKeptBytes;
    private long kept;
    private boolean working;

    OpeningEvents(StreamOpening opening, long maxKeptBytes) {
        this.opening = opening;
        this.maxKeptBytes = maxKeptBytes;
    }

    /**
     * Where the answer stands after {@code event}, one that came before it began.
     *
     * @throws MalformedAnswerException past the bound, before any work of the model was seen
     */
    Stage after(SseEvent event) {
        Stage stage = opening.after(event);
        if (stage == Stage.BEGUN) {
            return stage;
        }
        working |= stage == Stage.WORKING;
        kept += event.dataBytes().length + KEPT_EVENT_OVERHEAD;
        if (kept <= maxKeptBytes) {
            return working ? Stage.WORKING : Stage.PREAMBLE;
        }
        if (working) {
            return Stage.BEGUN;
        }
        throw new MalformedAnswerException("more than " + maxKeptBytes + " bytes of events without beginning an answer");
    }

    /**
     * Why the call fails when {@code provider} ended its stream before the answer began: a cut
     * ({@code CONNECTION_ERROR}), unless the opening says what the events lacked
     * ({@link StreamOpening#lackedAtEnd}): then a malformed answer ({@code ERROR}), as a complete
     * answer lacking it is.
     */
    Exception endedEarly(ProviderEndpoint provider) {
        String message = "provider " + provider.name() + " ended the stream before its answer began";
        String lacked = opening.lackedAtEnd();
        if (lacked == null) {
            return new UpstreamConnectionException(message, null);
        }
        return new MalformedAnswerException(message + ": " + lacked);
    }
}
