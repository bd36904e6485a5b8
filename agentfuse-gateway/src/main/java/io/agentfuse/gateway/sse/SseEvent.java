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
        StringBuilder out = new StringBuilder(data.length() + 32);
        if (event != null) {
            out.append("event: ").append(event).append('\n');
        }
        if (id != null) {
            out.append("id: ").append(id).append('\n');
        }
        for (String line : data.split("\r\n|\r|\n", -1)) {
            out.append("data: ").append(line).append('\n');
        }
        return out.append('\n').toString();
    }

    /** The wire form as a UTF-8 buffer. */
    public Buffer toBuffer() {
        return Buffer.buffer(encode());
    }
}
