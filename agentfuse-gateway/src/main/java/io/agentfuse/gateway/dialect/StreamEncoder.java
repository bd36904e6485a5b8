package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.sse.SseEvent;

import java.util.List;

/**
 * Writes neutral {@link StreamEvent}s as one dialect's SSE events, keeping the state that the
 * dialect needs (Anthropic's open content block and block numbering, OpenAI's chunk id). It is never
 * given a {@link StreamEvent.Reasoning}: {@link StreamTranslator} leaves those out.
 *
 * <p>Not thread-safe: one encoder per stream. Get one from {@link Dialect#streamEncoder}.
 *
 * <pre>{@code
 * StreamEncoder encoder = Dialects.OPENAI.streamEncoder(true, clock);
 * encoder.encode(new StreamEvent.TextDelta("Hello")).forEach(e -> response.write(e.toBuffer()));
 * }</pre>
 */
public interface StreamEncoder {

    /**
     * The SSE events that carry {@code event}.
     *
     * @throws UntranslatableException when the dialect cannot express the event in this place
     *         (for example OpenAI tool calls whose arguments interleave, for Anthropic)
     */
    List<SseEvent> encode(StreamEvent event);
}
