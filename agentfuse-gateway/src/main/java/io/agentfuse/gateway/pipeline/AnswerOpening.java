package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.sse.SseEvent;

import java.util.List;
import java.util.function.Predicate;

/**
 * Where a provider stream's answer begins (docs/design.md §13): the first event that carries
 * content — text, reasoning the model shows (a thinking block), a tool call, the finish — or an
 * error, as opposed to a preamble that only opens the stream (Anthropic's {@code message_start}, an
 * OpenAI chunk with only the role, Responses' {@code response.created}). Until then nothing has
 * been sent to the caller, so a stall (the first-token limit), a cut, a malformed event or an
 * in-band error is a failed attempt that is retried or fallen back from invisibly, and a hedge
 * still races. An error met on the way is kept
 * for the attempt's check ({@link #error()}).
 *
 * <p>One per attempt, with a decoder of its own (the relay's decoder later reads the same events
 * again): it reads only the stream's opening, decoding an event only when the decoder cannot tell
 * without ({@link StreamDecoder#opening}). Confined to the call's event loop.
 */
final class AnswerOpening implements Predicate<SseEvent> {

    private final StreamDecoder decoder;
    private StreamEvent.Error error;
    private SseEvent errorEvent;

    AnswerOpening(Dialect dialect) {
        this.decoder = dialect.streamDecoder();
    }

    /** Whether {@code event} begins the answer (content, finish or error). */
    @Override
    public boolean test(SseEvent event) {
        switch (decoder.opening(event)) {
            case PREAMBLE:
                return false;
            case BEGUN:
                return true;
            default:
                break;
        }
        List<StreamEvent> decoded;
        try {
            decoded = decoder.decode(event);
        } catch (RuntimeException unreadable) {
            error = new StreamEvent.Error("invalid_event", "upstream sent an event that could not be read: "
                    + unreadable.getMessage(), StreamEvent.Error.Cause.MALFORMED);
            errorEvent = event;
            return true;
        }
        for (StreamEvent part : decoded) {
            if (part instanceof StreamEvent.Error failed) {
                error = failed;
                errorEvent = event;
                return true;
            }
            if (!(part instanceof StreamEvent.Start) && !(part instanceof StreamEvent.TextDelta text && text.text().isEmpty())) {
                return true;
            }
        }
        return false;
    }

    /** The error the stream began with, or {@code null}. */
    StreamEvent.Error error() {
        return error;
    }

    /** The event that carried {@link #error()}, or {@code null}. */
    SseEvent errorEvent() {
        return errorEvent;
    }
}
