package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.sse.SseEvent;

import java.util.List;
import java.util.Objects;

/**
 * A stream's first event as a fresh decoder of its dialect {@linkplain StreamDecoder#observe
 * observed} it, with that decoder: the gateway looks at the first event before it answers (an
 * error there is a failed attempt, not a broken stream), and a same-dialect {@link StreamTranslator}
 * then goes on with the same decoder instead of observing the event again. For a Responses stream
 * the first event carries the whole response object; for any stream it was a second scan.
 *
 * <p>Not thread-safe: the decoder is the stream's, handed from the check to the relay on the
 * stream's context.
 *
 * @param event    the first event
 * @param decoder  the decoder that observed it and nothing else
 * @param observed what observing it said
 */
public record ObservedEvent(SseEvent event, StreamDecoder decoder, List<StreamEvent> observed) {

    public ObservedEvent {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(decoder, "decoder");
        Objects.requireNonNull(observed, "observed");
    }

    /** {@code event} observed by a fresh decoder of {@code dialect}. */
    public static ObservedEvent of(Dialect dialect, SseEvent event) {
        StreamDecoder decoder = dialect.streamDecoder();
        return new ObservedEvent(event, decoder, decoder.observe(event));
    }
}
