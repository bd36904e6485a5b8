package io.agentfuse.gateway.sse;

import io.vertx.core.buffer.Buffer;

import java.util.Objects;

/**
 * One server-sent event: an optional event name, its data and an optional id.
 *
 * <p>Immutable and thread-safe. {@link #encode()} writes the wire form defined by the HTML
 * living standard: an {@code event:} line when named, one {@code data:} line per line of data
 * (so data containing newlines survives the round trip), and a blank line that ends the event.
 *
 * <pre>{@code
 * response.write(SseEvent.named("message_stop", "{\"type\":\"message_stop\"}").toBuffer());
 * response.write(SseEvent.DONE.toBuffer());   // OpenAI's "data: [DONE]"
 * }</pre>
 *
 * @param event the event name, or {@code null} for the default ("message")
 * @param data  the data, never {@code null} (may be empty)
 * @param id    the event id, or {@code null}
 */
public record SseEvent(String event, String data, String id) {

    /** OpenAI's end-of-stream marker, {@code data: [DONE]}. */
    public static final SseEvent DONE = new SseEvent(null, "[DONE]", null);

    public SseEvent {
        Objects.requireNonNull(data, "data");
    }

    /** An unnamed event carrying {@code data}. */
    public static SseEvent data(String data) {
        return new SseEvent(null, data, null);
    }

    /** An event named {@code event} carrying {@code data}. */
    public static SseEvent named(String event, String data) {
        return new SseEvent(event, data, null);
    }

    /** Whether this is OpenAI's {@code [DONE]} marker. */
    public boolean isDone() {
        return "[DONE]".equals(data);
    }

    /** The wire form, ending with the blank line that dispatches the event. */
    public String encode() {
        return appendTo(new StringBuilder(data.length() + 32)).toString();
    }

    /** The wire form as a UTF-8 buffer. */
    public Buffer toBuffer() {
        return Buffer.buffer(encode());
    }

    /** Appends the wire form to {@code out}, e.g. several events into one write. */
    public Buffer appendTo(Buffer out) {
        if (data.indexOf('\n') >= 0 || data.indexOf('\r') >= 0) {
            return out.appendString(encode());
        }
        // One line of data, the usual relayed event: written in pieces, without building the text first.
        if (event != null) {
            out.appendString("event: ").appendString(event).appendByte((byte) '\n');
        }
        if (id != null) {
            out.appendString("id: ").appendString(id).appendByte((byte) '\n');
        }
        return out.appendString("data: ").appendString(data).appendString("\n\n");
    }

    // One pass over the data, splitting it at CRLF, CR or LF (a relayed event is mostly a single line).
    private StringBuilder appendTo(StringBuilder out) {
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
}
