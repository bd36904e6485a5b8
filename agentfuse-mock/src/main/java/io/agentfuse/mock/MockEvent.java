package io.agentfuse.mock;

import java.util.Objects;

/**
 * One server-sent event the mock writes: an optional event name and one line of data.
 *
 * <p>The mock only writes events, and always with single-line JSON data, so this is the writing
 * half of an SSE event and no more; the gateway's own {@code MockEvent} and parser read them.
 *
 * @param event the event name, or {@code null} for the default ("message")
 * @param data  the data, one line, never {@code null}
 */
public record MockEvent(String event, String data) {

    /** OpenAI's end-of-stream marker, {@code data: [DONE]}. */
    public static final MockEvent DONE = new MockEvent(null, "[DONE]");

    public MockEvent {
        Objects.requireNonNull(data, "data");
    }

    /** An unnamed event carrying {@code data}. */
    public static MockEvent data(String data) {
        return new MockEvent(null, data);
    }

    /** An event named {@code event} carrying {@code data}. */
    public static MockEvent named(String event, String data) {
        return new MockEvent(event, data);
    }

    /** The wire form, ending with the blank line that dispatches the event. */
    public String encode() {
        return event == null ? "data: " + data + "\n\n" : "event: " + event + "\ndata: " + data + "\n\n";
    }
}
