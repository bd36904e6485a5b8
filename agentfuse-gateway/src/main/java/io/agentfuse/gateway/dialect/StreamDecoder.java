package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.sse.SseEvent;

import java.util.List;
import java.util.Objects;

/**
 * Reads one dialect's SSE events, one at a time, as neutral {@link StreamEvent}s, keeping the
 * state that the dialect spreads over several events (OpenAI's usage arrives after its finish
 * reason; Anthropic's input and output tokens arrive in different events).
 *
 * <p>Not thread-safe: one decoder per stream, fed in order. Get one from
 * {@link Dialect#streamDecoder()}.
 *
 * <pre>{@code
 * StreamDecoder decoder = Dialects.ANTHROPIC.streamDecoder();
 * for (StreamEvent event : decoder.decode(sseEvent)) { ... }
 * }</pre>
 */
public interface StreamDecoder {

    /** The neutral events carried by {@code event} (often none, sometimes several). */
    List<StreamEvent> decode(SseEvent event);

    /**
     * {@link #decode} for a stream relayed to a caller of the same dialect, who gets the event as
     * it came: the same {@link StreamEvent.Error}s and {@link StreamEvent.Finish}es, the same state
     * afterwards ({@link #usage()}, {@link #finished()}, what {@link #end()} owes), but other events
     * may be left out, so that a decoder can skip building what nobody reads.
     */
    default List<StreamEvent> observe(SseEvent event) {
        return decode(event);
    }

    /**
     * Whether the event just given to {@link #observe} goes to a caller of the same dialect as it
     * came; every event by default. OpenAI's decoder holds back the usage chunk the gateway asked
     * for on its own: it knows that chunk from the reading it has done anyway.
     *
     * @param clientWantsUsage whether an OpenAI caller asked for {@code stream_options.include_usage}
     */
    default boolean relaysLastEvent(boolean clientWantsUsage) {
        return true;
    }

    /** Where a stream's answer stands after one of its opening events ({@link #opening}). */
    enum Opening {
        /** The event only opens the stream (a start, a role, an empty text): the answer has not begun. */
        PREAMBLE,
        /** The event carries content: the answer has begun. */
        BEGUN,
        /** Not told without decoding the event. */
        UNKNOWN
    }

    /**
     * Whether {@code event}, one of a stream's opening read by a decoder used for nothing else, begins
     * the answer (docs/design.md §13), when the decoder can tell without decoding it; by default
     * {@link Opening#UNKNOWN}: decode it. A decoder that answers {@code PREAMBLE} or {@code BEGUN}
     * promises that {@link #decode} gives no error for the event, and content exactly when it says
     * {@code BEGUN}.
     */
    default Opening opening(SseEvent event) {
        return Opening.UNKNOWN;
    }

    /**
     * The upstream response ended. Returns the events still owed: nothing after a proper end, a
     * {@link StreamEvent.Finish} when the dialect's end marker is merely missing after a finish
     * reason, else an {@link StreamEvent.Error} — a stream cut short must not look complete.
     */
    List<StreamEvent> end();

    /**
     * The events that end a stream relayed to a caller of the same dialect as it came, with a
     * failure of {@code type} and {@code message} the gateway adds (a stream cut short): numbered
     * and shaped to follow the events relayed before. Empty by default: the dialect's one error
     * event ({@link Dialect#errorEvent}) fits any place in its streams.
     */
    default List<SseEvent> failureAfterRelay(String type, String message) {
        return List.of();
    }

    /**
     * The events of {@link #failureAfterRelay} that follow the provider's own error event, named
     * {@code relayedEvent}, relayed in the place of the closing event of its name, or else of the
     * first: numbered to follow it. By default that closing event and those before it are left out.
     */
    default List<SseEvent> closingAfterRelayed(String relayedEvent, String type, String message) {
        List<SseEvent> closing = failureAfterRelay(type, message);
        int standsFor = 0;
        for (int i = 0; i < closing.size(); i++) {
            if (Objects.equals(closing.get(i).event(), relayedEvent)) {
                standsFor = i;
            }
        }
        return closing.subList(Math.min(standsFor + 1, closing.size()), closing.size());
    }

    /** Whether the stream reached its end (finished or failed). */
    boolean finished();

    /** The tokens reported so far ({@link Usage#ZERO} until the provider says). */
    Usage usage();
}
