package io.agentfuse.gateway.sse;

import io.agentfuse.gateway.internal.ByteSearch;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One server-sent event: an optional event name, its data and an optional id.
 *
 * <p>The data is kept in the form it came in and turned into the other only when asked: an event
 * the gateway writes holds a {@code String}; an event read from a provider holds the UTF-8 bytes
 * of its {@code data} lines ({@link SseParser}), so that relaying it ({@link #appendTo(Buffer)})
 * and scanning it ({@link #dataBytes()}) never decode and re-encode it. {@link #data()} decodes
 * once and keeps the text.
 *
 * <p>Immutable and thread-safe; equal when name, data and id are. {@link #encode()} writes the
 * wire form defined by the HTML living standard: an {@code event:} line when named, one
 * {@code data:} line per line of data (so data containing newlines survives the round trip), and
 * a blank line that ends the event.
 *
 * <pre>{@code
 * response.write(SseEvent.named("message_stop", "{\"type\":\"message_stop\"}").toBuffer());
 * response.write(SseEvent.DONE.toBuffer());   // OpenAI's "data: [DONE]"
 * }</pre>
 */
public final class SseEvent {

    /** OpenAI's end-of-stream marker, {@code data: [DONE]}. */
    public static final SseEvent DONE = new SseEvent(null, "[DONE]", null);

    private static final byte[] DONE_BYTES = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_FIELD = "event: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ID_FIELD = "id: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_FIELD = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END_OF_EVENT = "\n\n".getBytes(StandardCharsets.US_ASCII);

    private final String event;
    private final String id;
    /**
     * The data as the event was made with it: text, or UTF-8 bytes (exactly one of the two). Final,
     * so that making an event costs no memory fence (volatile stores were 8 % of the gateway's own
     * work on a stream, {@code StreamRelayBench}).
     */
    private final String givenText;
    private final byte[] givenBytes;
    /** Whether the data is known to be one line (it came as one {@code data:} line): no need to look for breaks. */
    private final boolean oneLine;
    /** The other form, made from the given one once asked for. */
    private volatile String derivedText;
    private volatile byte[] derivedBytes;

    /**
     * @param event the event name, or {@code null} for the default ("message")
     * @param data  the data, never {@code null} (may be empty)
     * @param id    the event id, or {@code null}
     */
    public SseEvent(String event, String data, String id) {
        this(event, Objects.requireNonNull(data, "data"), null, id, false);
    }

    private SseEvent(String event, String text, byte[] bytes, String id, boolean oneLine) {
        this.event = event;
        this.givenText = text;
        this.givenBytes = bytes;
        this.oneLine = oneLine;
        this.id = id;
    }

    /** An unnamed event carrying {@code data}. */
    public static SseEvent data(String data) {
        return new SseEvent(null, data, null);
    }

    /** An event named {@code event} carrying {@code data}. */
    public static SseEvent named(String event, String data) {
        return new SseEvent(event, data, null);
    }

    /**
     * An event whose data is the UTF-8 {@code data}, handed over (not copied: the caller must not
     * change it); {@code oneLine} when it came as one line, so it has no line break.
     */
    static SseEvent ofBytes(String event, byte[] data, String id, boolean oneLine) {
        return new SseEvent(event, null, Objects.requireNonNull(data, "data"), id, oneLine);
    }

    /** The event name, or {@code null} for the default ("message"). */
    public String event() {
        return event;
    }

    /** The data, never {@code null} (may be empty). */
    public String data() {
        if (givenText != null) {
            return givenText;
        }
        String data = derivedText;
        if (data == null) {
            data = new String(givenBytes, StandardCharsets.UTF_8);
            derivedText = data;
        }
        return data;
    }

    /** The data as UTF-8 bytes, shared: read them, never change them. */
    public byte[] dataBytes() {
        if (givenBytes != null) {
            return givenBytes;
        }
        byte[] data = derivedBytes;
        if (data == null) {
            data = givenText.getBytes(StandardCharsets.UTF_8);
            derivedBytes = data;
        }
        return data;
    }

    /** The event id, or {@code null}. */
    public String id() {
        return id;
    }

    /** Whether this is OpenAI's {@code [DONE]} marker. */
    public boolean isDone() {
        return givenText != null ? "[DONE]".equals(givenText) : Arrays.equals(givenBytes, DONE_BYTES);
    }

    /** The wire form, ending with the blank line that dispatches the event. */
    public String encode() {
        String data = data();
        return appendTo(new StringBuilder(data.length() + 32), data).toString();
    }

    /** The wire form as a UTF-8 buffer. */
    public Buffer toBuffer() {
        return appendTo(Buffer.buffer(wireLength()));
    }

    /**
     * The length of the wire form in bytes: exact for an event of one data line whose name and id
     * are ASCII (what providers send), a close estimate otherwise — enough to size a buffer.
     */
    public int wireLength() {
        int length = DATA_FIELD.length + dataBytes().length + END_OF_EVENT.length;
        if (event != null) {
            length += EVENT_FIELD.length + event.length() + 1;
        }
        if (id != null) {
            length += ID_FIELD.length + id.length() + 1;
        }
        return length;
    }

    /** Appends the wire form to {@code out}, e.g. several events into one write. */
    public Buffer appendTo(Buffer out) {
        byte[] data = dataBytes();
        if (!oneLine && ByteSearch.lineEnd(data, 0, data.length) < data.length) {
            return out.appendString(encode());
        }
        // One line of data, the usual relayed event: its bytes as they are, without building the text first.
        if (event != null) {
            out.appendBytes(EVENT_FIELD).appendString(event).appendByte((byte) '\n');
        }
        if (id != null) {
            out.appendBytes(ID_FIELD).appendString(id).appendByte((byte) '\n');
        }
        return out.appendBytes(DATA_FIELD).appendBytes(data).appendBytes(END_OF_EVENT);
    }

    // One pass over the data, splitting it at CRLF, CR or LF.
    private StringBuilder appendTo(StringBuilder out, String data) {
        if (event != null) {
            out.append("event: ").append(event).append('\n');
        }
        if (id != null) {
            out.append("id: ").append(id).append('\n');
        }
        int length = data.length();
        int lineStart = 0;
        for (int i = 0; i < length; i++) {
            char c = data.charAt(i);
            if (c == '\n' || c == '\r') {
                out.append("data: ").append(data, lineStart, i).append('\n');
                if (c == '\r' && i + 1 < length && data.charAt(i + 1) == '\n') {
                    i++;
                }
                lineStart = i + 1;
            }
        }
        out.append("data: ").append(data, lineStart, length).append('\n');
        return out.append('\n');
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SseEvent that && Objects.equals(event, that.event) && Objects.equals(id, that.id)
                && data().equals(that.data());
    }

    @Override
    public int hashCode() {
        return Objects.hash(event, data(), id);
    }

    @Override
    public String toString() {
        return "SseEvent[event=" + event + ", data=" + data() + ", id=" + id + "]";
    }
}
