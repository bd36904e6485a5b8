package io.agentfuse.gateway.dialect;

import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Objects;

/**
 * One turn of the conversation in the neutral model. The system prompt is not a message (it is
 * {@link ChatRequest#system()}); tool results are {@link Role#USER} content, as in Anthropic's
 * API, and become OpenAI {@code tool} messages when written in that dialect.
 *
 * <p>Immutable as a value (equal by role and content), with one remembered measure and one key: a
 * parser hands out the same message object for a message an agent resends every turn (see
 * {@code http.DerivedValues}), so what the context ladder measured of it last turn, and the hash it
 * keys the provider's reported usage by, are found on the object itself, without a lookup per text in
 * a table of the counter's ({@link #measured}, {@link #key}).
 *
 * <p>A message a parser read also keeps what it read it from, its {@linkplain #originIn origin}: the
 * caller's own JSON, shared with the body, not copied. The neutral model carries what crosses
 * dialects; a request rewritten within its own dialect (compacted, snipped, continued) sends each
 * message it kept as its origin, with every field the neutral model leaves out (a block's
 * {@code cache_control}, an image's {@code detail}, thinking blocks, parts of kinds no other dialect
 * takes).
 *
 * <p>{@code new ChatMessage(Role.USER, List.of(new ContentPart.Text("Hi")))}
 */
public final class ChatMessage {

    /** Who speaks a message. */
    public enum Role { USER, ASSISTANT }

    /** A key of this message, the length of its text, and who took them; immutable, so it may be published racily. */
    private record Key(Object keyer, long value, long textChars) {
    }

    /** A measure of this message and who took it; immutable, so it may be published racily. */
    private record Measure(Object measurer, long value) {
    }

    private final Role role;
    private final List<ContentPart> content;
    private final Dialect source;
    private final List<JsonObject> origin;
    private Measure measure;
    private Key key;

    /**
     * A message made by the gateway (a translation, a summary, a marker): it has no origin.
     *
     * @param role    who speaks
     * @param content the pieces, in order
     */
    public ChatMessage(Role role, List<ContentPart> content) {
        this(role, content, null, List.of());
    }

    /**
     * A message the parser of {@code source} read from {@code origin}.
     *
     * @param role    who speaks
     * @param content the pieces, in order
     * @param source  the dialect whose parser read it
     * @param origin  the elements of the caller's body it was read from, in order (one message of most
     *                dialects; the items of one turn of the Responses API), shared as received
     */
    public ChatMessage(Role role, List<ContentPart> content, Dialect source, List<JsonObject> origin) {
        this.role = Objects.requireNonNull(role, "role");
        this.content = List.copyOf(content);
        this.source = source;
        this.origin = List.copyOf(origin);
    }

    /** Who speaks. */
    public Role role() {
        return role;
    }

    /** The pieces, in order. */
    public List<ContentPart> content() {
        return content;
    }

    /**
     * What of the caller's body this message was read from, when a parser of dialect {@code wire}
     * read it: what a writer of that wire sends for the message, as it came; empty for a message the
     * gateway made, or read from another dialect. Never change it: it is shared with the body.
     */
    public List<JsonObject> originIn(Dialect wire) {
        return source != null && source == wire ? origin : List.of();
    }

    /**
     * What {@code measurer} remembered of this message with {@link #remember}, or {@code -1}. One
     * measure is kept: a second measurer's replaces the first's, which then measures again.
     */
    public long measured(Object measurer) {
        Measure known = measure;
        return known != null && known.measurer == measurer ? known.value : -1;
    }

    /** Remembers {@code value} (not negative) as {@code measurer}'s measure of this message. */
    public void remember(Object measurer, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("a measure must not be negative, but was " + value);
        }
        measure = new Measure(Objects.requireNonNull(measurer, "measurer"), value);
    }

    /**
     * The key {@code keyer} remembered of this message with {@link #rememberKey} (a hash of its
     * content, which a resent message then needs no new hash of), or {@code 0}: a keyer's keys are never 0.
     * A slot of its own beside {@link #measured}'s, as both are read for every message of a request.
     */
    public long key(Object keyer) {
        Key known = key;
        return known != null && known.keyer == keyer ? known.value : 0;
    }

    /** The length of this message's text {@code keyer} remembered with its key, or {@code -1}. */
    public long keyedTextChars(Object keyer) {
        Key known = key;
        return known != null && known.keyer == keyer ? known.textChars : -1;
    }

    /** Remembers {@code value} (not 0) as {@code keyer}'s key of this message, and the length of its text beside it. */
    public void rememberKey(Object keyer, long value, long textChars) {
        if (value == 0 || textChars < 0) {
            throw new IllegalArgumentException("a key must not be 0, nor a length negative, but were " + value + ", " + textChars);
        }
        key = new Key(Objects.requireNonNull(keyer, "keyer"), value, textChars);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ChatMessage message && role == message.role && content.equals(message.content);
    }

    @Override
    public int hashCode() {
        return 31 * role.hashCode() + content.hashCode();
    }

    @Override
    public String toString() {
        return "ChatMessage[role=" + role + ", content=" + content + "]";
    }
}
