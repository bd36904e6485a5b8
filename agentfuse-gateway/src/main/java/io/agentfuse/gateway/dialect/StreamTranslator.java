package io.agentfuse.gateway.dialect;

import io.agentfuse.core.Clock;
import io.agentfuse.gateway.sse.SseEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns one upstream stream into the caller's stream, event by event, and keeps track of its
 * usage, whether it completed and how it failed — for the breaker's token and failure accounting.
 *
 * <p>Across dialects, each upstream event is decoded to neutral events and re-encoded. Within
 * one dialect the events pass through byte-for-byte, only observed, except what the dialect
 * holds back ({@link StreamDecoder#relaysLastEvent}: OpenAI's usage chunk the caller did not
 * ask for) and an event that is not well-formed, which is replaced by an error event: the caller
 * never receives a broken event. A translated stream whose provider names neither itself nor its
 * model (Bedrock) gets a generated id and the caller's model ({@link AnswerNames}).
 *
 * <p>A {@linkplain #continuable continuable} translator decodes and re-encodes within one dialect
 * too, so that its encoder knows what the caller got: it holds back error events (the relay asks
 * for them with {@link #error} once it gives up), keeps the text sent and whether a tool call began,
 * and can go on with another upstream stream ({@link #continueWith}) whose start event it drops and
 * whose usage it adds to the first stream's (docs/streams.md, continuation).
 *
 * <p>Not thread-safe: one per stream, fed in order.
 *
 * <pre>{@code
 * StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.ANTHROPIC, false, clock);
 * upstream.handler(event -> translator.translate(event).forEach(e -> response.write(e.toBuffer())));
 * upstream.endHandler(v -> translator.end().forEach(e -> response.write(e.toBuffer())));
 * }</pre>
 */
public final class StreamTranslator {

    private Dialect upstream;
    private final Dialect client;
    private final boolean clientWantsUsage;
    private StreamDecoder decoder;
    private final StreamEncoder encoder;
    /** The model the caller asked for, named in a stream whose provider names none; {@code null} when unknown. */
    private final String callerModel;
    /** Whether events pass through as they came (one dialect, not continuable) rather than being re-encoded. */
    private final boolean passThrough;
    /** The text the caller got so far; {@code null} unless continuable. */
    private final StringBuilder sent;
    private boolean toolCallBegun;
    /** Whether this translator went on with another upstream stream ({@link #continueWith}). */
    private boolean continued;
    /** The tokens of the streams before the current one (continuations). */
    private Usage before = Usage.ZERO;
    private StreamEvent.Error failure;
    private String failureNote = ""; // after the message of every failure written (noteOnFailures)
    /** The first event as the decoder observed it already; {@code null} once it came (or across dialects). */
    private ObservedEvent observedFirst;

    private StreamTranslator(Dialect upstream, Dialect client, boolean clientWantsUsage, Clock clock,
                             ObservedEvent first) {
        this(upstream, client, clientWantsUsage, first, client.streamEncoder(clientWantsUsage, clock), null, false);
    }

    private StreamTranslator(Dialect upstream, Dialect client, boolean clientWantsUsage, ObservedEvent first,
                             StreamEncoder encoder, String callerModel, boolean continuable) {
        this.upstream = Objects.requireNonNull(upstream, "upstream");
        this.client = Objects.requireNonNull(client, "client");
        this.clientWantsUsage = clientWantsUsage;
        this.passThrough = upstream == client && !continuable;
        this.sent = continuable ? new StringBuilder() : null;
        // Re-encoding decodes every event in full, so an observing decoder is of no use there.
        this.observedFirst = passThrough ? first : null;
        this.decoder = observedFirst != null ? observedFirst.decoder() : upstream.streamDecoder();
        this.encoder = encoder;
        this.callerModel = callerModel;
    }

    /** {@link #between(Dialect, Dialect, boolean, Clock, ObservedEvent)} for the caller who sent {@code request}. */
    static StreamTranslator between(Dialect upstream, ChatRequest request, boolean clientWantsUsage, Clock clock,
                                    ObservedEvent first) {
        return new StreamTranslator(upstream, request.dialect(), clientWantsUsage, first,
                request.dialect().streamEncoder(clientWantsUsage, clock, request), request.model(), false);
    }

    /**
     * A continuable translator for the caller who sent {@code request}: every event is decoded and
     * re-encoded, within one dialect too (the events the caller gets are then the encoder's, not the
     * provider's bytes), so that another stream can go on where this one breaks.
     */
    static StreamTranslator continuable(Dialect upstream, ChatRequest request, boolean clientWantsUsage, Clock clock) {
        return new StreamTranslator(upstream, request.dialect(), clientWantsUsage, null,
                request.dialect().streamEncoder(clientWantsUsage, clock, request), request.model(), true);
    }

    /** A translator from an {@code upstream} stream to a {@code client} stream ({@code clientWantsUsage}: OpenAI's include_usage). */
    public static StreamTranslator between(Dialect upstream, Dialect client, boolean clientWantsUsage, Clock clock) {
        return new StreamTranslator(upstream, client, clientWantsUsage, clock, null);
    }

    /**
     * {@link #between} for a stream whose first event was observed already ({@code first}, by a
     * decoder of {@code upstream}; {@code null} if it was not): within one dialect that decoder goes
     * on, and the first event is not observed again.
     */
    public static StreamTranslator between(Dialect upstream, Dialect client, boolean clientWantsUsage, Clock clock,
                                           ObservedEvent first) {
        return new StreamTranslator(upstream, client, clientWantsUsage, clock, first);
    }

    /**
     * The caller's events for one upstream event.
     *
     * @throws UntranslatableException when the caller's dialect cannot express what arrived
     */
    public List<SseEvent> translate(SseEvent event) {
        if (!passThrough) {
            return encode(noteFailure(decoder.decode(event)));
        }
        boolean failedBefore = failure != null;
        List<StreamEvent> decoded = noteFailure(observe(event));
        if (failure != null && failure.cause() != StreamEvent.Error.Cause.PROVIDER) {
            // A broken event is never relayed, not even within one dialect: the caller gets an error event instead,
            // shaped to follow the events relayed (the encoder has seen none of them).
            return failedBefore ? List.of() : error(failure.type(), failure.message());
        }
        if (failure != null && !failedBefore) {
            return withClosingAfter(event);
        }
        return decoder.relaysLastEvent(clientWantsUsage) ? List.of(event) : List.of();
    }

    /**
     * The provider's own error {@code event}, relayed, and what the dialect's closing of a failed
     * stream ({@link StreamDecoder#failureAfterRelay}) has after it: the provider's event takes the
     * place of the closing event of its name, or else of the first (the dialect's error event). So a
     * Responses stream whose provider sent only an error still ends with {@code response.failed}, as
     * every Responses stream must; one that sent {@code response.failed} itself, or a dialect whose
     * error event ends its streams, gets nothing more.
     */
    private List<SseEvent> withClosingAfter(SseEvent event) {
        List<SseEvent> closing = decoder.closingAfterRelayed(event.event(), failure.type(), failure.message());
        List<SseEvent> out = new ArrayList<>(closing.size() + 1);
        out.add(event);
        out.addAll(closing);
        return out;
    }

    /**
     * The upstream response ended: the caller's closing events — the dialect's end marker if the
     * provider left it out after a complete answer — or an error event if it ended early.
     */
    public List<SseEvent> end() {
        List<StreamEvent> owed = noteFailure(decoder.end());
        if (!passThrough) {
            return encode(owed);
        }
        List<SseEvent> closing = new ArrayList<>(1);
        for (StreamEvent event : owed) {
            if (event instanceof StreamEvent.Error error) {
                // Shaped to follow what was relayed: a begun Responses stream ends with response.failed.
                closing.addAll(error(error.type(), error.message()));
            } else if (event instanceof StreamEvent.Finish) {
                closing.add(client.endMarker());
            }
        }
        return closing;
    }

    /**
     * The caller's events reporting a failure with {@code type} and {@code message}; they end the
     * stream. They fit the events before them (the Responses API numbers its events and closes a
     * begun response with {@code response.failed}): across dialects the encoder writes them, within
     * one the decoder that saw the relayed events ({@link StreamDecoder#failureAfterRelay}).
     */
    public List<SseEvent> error(String type, String message) {
        String noted = message + failureNote;
        if (!passThrough) {
            return encoder.encode(new StreamEvent.Error(type, noted));
        }
        List<SseEvent> closing = decoder.failureAfterRelay(type, noted);
        return closing.isEmpty() ? List.of(client.errorEvent(type, noted)) : closing;
    }

    /** Ends the message of every failure event written from now on with {@code note} (the relayed stream's request id). */
    public void noteOnFailures(String note) {
        failureNote = note;
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

    /** The tokens reported so far: of every stream this translator relayed, when it was continued. */
    public Usage usage() {
        return before.plus(decoder.usage());
    }

    /** The tokens the current upstream stream reported so far (the one a continuation relays now). */
    public Usage streamUsage() {
        return decoder.usage();
    }

    /** Whether this translator can go on with another stream: continuable, and no tool call began. */
    public boolean continuable() {
        return sent != null && !toolCallBegun;
    }

    /** The text the caller got so far, for the request that continues it; empty unless continuable. */
    public String sentText() {
        return sent == null ? "" : sent.toString();
    }

    /**
     * Goes on with a stream from a provider of {@code next}, after the current one failed: its
     * events are relayed as the rest of this answer — its start event dropped (the caller has had
     * one), its usage added to what the streams before reported.
     *
     * @throws IllegalStateException unless {@link #continuable()}
     */
    public void continueWith(Dialect next) {
        if (!continuable()) {
            throw new IllegalStateException("only a continuable text answer can go on with another stream");
        }
        before = usage();
        upstream = Objects.requireNonNull(next, "next");
        decoder = next.streamDecoder();
        failure = null;
        continued = true;
    }

    // The first event's observation is taken over only for that very event (the stream delivers it first).
    private List<StreamEvent> observe(SseEvent event) {
        ObservedEvent first = observedFirst;
        observedFirst = null;
        return first != null && first.event() == event ? first.observed() : decoder.observe(event);
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
            if (event instanceof StreamEvent.Reasoning) {
                continue; // one dialect's reasoning has no counterpart in another's stream
            }
            StreamEvent named = event instanceof StreamEvent.Start start ? AnswerNames.named(start, callerModel)
                    : event instanceof StreamEvent.Error error ? error.asReadBy(client, upstream).noted(failureNote) : event;
            StreamEvent owed = sent == null ? named : noted(named);
            if (owed != null) {
                out.addAll(encoder.encode(owed));
            }
        }
        return out;
    }

    /**
     * What a continuable translator encodes for {@code event}, noting what it tells: nothing for an
     * error (held back until the relay gives up) or a continuation's start; a continuation's finish
     * with the usage of every stream.
     */
    private StreamEvent noted(StreamEvent event) {
        if (event instanceof StreamEvent.Error || (continued && event instanceof StreamEvent.Start)) {
            return null;
        }
        if (event instanceof StreamEvent.TextDelta text) {
            sent.append(text.text());
        } else if (event instanceof StreamEvent.ToolCallStart) {
            toolCallBegun = true;
        } else if (continued && event instanceof StreamEvent.Finish finish) {
            return new StreamEvent.Finish(finish.reason(), finish.stopSequence(), before.plus(finish.usage()));
        }
        return event;
    }
}
