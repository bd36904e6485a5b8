package io.agentfuse.gateway.dialect;

import io.agentfuse.core.Clock;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns one upstream stream into the caller's stream, event by event, and keeps track of its
 * usage, whether it completed and how it failed — for the breaker's token and failure accounting.
 *
 * <p>Across dialects, each upstream event is decoded to neutral events and re-encoded. Within
 * one dialect the events pass through byte-for-byte, only observed; the one exception is
 * OpenAI's usage-only chunk, which the gateway always asks for (to count tokens) and which is
 * dropped when the caller did not ask for it, since clients that did not ask may not expect a
 * chunk with empty {@code choices}.
 *
 * <p>Not thread-safe: one per stream, fed in order.
 *
 * <pre>{@code
 * StreamTranslator translator = StreamTranslator.between(Dialect.OPENAI, Dialect.ANTHROPIC, false, clock);
 * upstream.handler(event -> translator.translate(event).forEach(e -> response.write(e.toBuffer())));
 * upstream.endHandler(v -> translator.end().forEach(e -> response.write(e.toBuffer())));
 * }</pre>
 */
public final class StreamTranslator {

    private final Dialect upstream;
    private final Dialect client;
    private final boolean clientWantsUsage;
    private final StreamDecoder decoder;
    private final StreamEncoder encoder;
    private StreamEvent.Error failure;

    private StreamTranslator(Dialect upstream, Dialect client, boolean clientWantsUsage, Clock clock) {
        this.upstream = Objects.requireNonNull(upstream, "upstream");
        this.client = Objects.requireNonNull(client, "client");
        this.clientWantsUsage = clientWantsUsage;
        this.decoder = upstream.streamDecoder();
        this.encoder = client.streamEncoder(clientWantsUsage, clock);
    }

    /**
     * A translator from an {@code upstream} stream to a {@code client} stream.
     *
     * @param clientWantsUsage whether an OpenAI caller asked for {@code stream_options.include_usage}
     */
    public static StreamTranslator between(Dialect upstream, Dialect client, boolean clientWantsUsage, Clock clock) {
        return new StreamTranslator(upstream, client, clientWantsUsage, clock);
    }

    /**
     * The caller's events for one upstream event.
     *
     * @throws UntranslatableException when the caller's dialect cannot express what arrived
     */
    public List<SseEvent> translate(SseEvent event) {
        List<StreamEvent> decoded = noteFailure(decoder.decode(event));
        if (upstream == client) {
            return dropsUnwantedUsageChunk(event) ? List.of() : List.of(event);
        }
        return encode(decoded);
    }

    /** The upstream response ended: the caller's closing events, or an error event if it ended early. */
    public List<SseEvent> end() {
        List<StreamEvent> owed = noteFailure(decoder.end());
        if (upstream == client) {
            // A complete stream was already passed through; only a stream cut short needs an ending.
            return owed.stream().filter(StreamEvent.Error.class::isInstance).map(encoder::encode)
                    .flatMap(List::stream).toList();
        }
        return encode(owed);
    }

    /** The caller's event reporting a failure with {@code type} and {@code message}; ends the stream. */
    public SseEvent error(String type, String message) {
        return client.errorEvent(type, message);
    }

    /** Whether the upstream stream reached its end (finished or failed). */
    public boolean finished() {
        return decoder.finished();
    }

    /**
     * How the stream failed, if it did: an error event from the provider, or an end before the
     * answer was complete. Empty for a stream that is running or finished properly.
     */
    public Optional<StreamEvent.Error> failure() {
        return Optional.ofNullable(failure);
    }

    /** The tokens reported so far. */
    public Usage usage() {
        return decoder.usage();
    }

    private List<StreamEvent> noteFailure(List<StreamEvent> events) {
        for (StreamEvent event : events) {
            if (event instanceof StreamEvent.Error error && failure == null) {
                failure = error;
            }
        }
        return events;
    }

    private List<SseEvent> encode(List<StreamEvent> events) {
        if (events.isEmpty()) {
            return List.of();
        }
        List<SseEvent> out = new ArrayList<>(events.size() + 2);
        for (StreamEvent event : events) {
            out.addAll(encoder.encode(event));
        }
        return out;
    }

    private boolean dropsUnwantedUsageChunk(SseEvent event) {
        if (upstream != Dialect.OPENAI || clientWantsUsage || event.isDone()) {
            return false;
        }
        try {
            JsonObject chunk = new JsonObject(event.data());
            return chunk.getValue("choices") instanceof JsonArray choices && choices.isEmpty()
                    && chunk.getValue("usage") instanceof JsonObject;
        } catch (DecodeException | ClassCastException e) {
            return false;
        }
    }
}
