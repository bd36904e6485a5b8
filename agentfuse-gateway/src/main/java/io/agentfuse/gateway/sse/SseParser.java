package io.agentfuse.gateway.sse;

import io.vertx.core.buffer.Buffer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An incremental server-sent-events parser: feed it the body's buffers as they arrive, in any
 * split, and it hands each complete event to the sink.
 *
 * <p>Follows the HTML living standard's parsing rules: lines end in LF, CRLF or CR (a CRLF split
 * across two buffers counts once); {@code data} lines accumulate, joined by LF; a line starting
 * with {@code :} is a comment; a single space after the colon is dropped; a field without a colon
 * has an empty value; a blank line dispatches the event, unless it has no data. Lines are decoded
 * as UTF-8 only once complete, so a multi-byte character split across buffers survives. A leading
 * byte-order mark is skipped. {@code retry} and unknown fields are ignored. An event's
 * {@link SseEvent#id()} is the id given within that event only (not the standard's "last event
 * id", which matters for reconnecting browsers, not for a relaying proxy).
 *
 * <p>A line longer than {@code maxEventBytes} (default 8 MiB, {@code server.maxSseEvent}), or an
 * event whose data lines add up to more, fails with {@link IllegalStateException}, so a broken or
 * hostile upstream cannot make the gateway buffer without end.
 *
 * <p>Not thread-safe: feed it from one thread at a time (Vert.x delivers a response's buffers on
 * one event loop).
 *
 * <pre>{@code
 * SseParser parser = new SseParser(event -> System.out.println(event.data()));
 * response.handler(parser::feed);
 * response.endHandler(v -> parser.end());
 * }</pre>
 */
public final class SseParser {

    /** Default upper bound on the length of one line and on the data of one event. */
    public static final int DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

    private final Consumer<SseEvent> sink;
    private final int maxLineBytes;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String eventName;
    private String id;
    private boolean lastWasCarriageReturn;
    private boolean atStart = true;

    /** A parser handing events to {@code sink}, with the default line limit. */
    public SseParser(Consumer<SseEvent> sink) {
        this(sink, DEFAULT_MAX_LINE_BYTES);
    }

    /** A parser handing events to {@code sink}, failing on lines or event data longer than {@code maxEventBytes}. */
    public SseParser(Consumer<SseEvent> sink, int maxEventBytes) {
        this.sink = Objects.requireNonNull(sink, "sink");
        if (maxEventBytes < 1) {
            throw new IllegalArgumentException("maxEventBytes must be >= 1, but was " + maxEventBytes);
        }
        this.maxLineBytes = maxEventBytes;
    }

    /** Parses the next piece of the stream, dispatching every event it completes. */
    public void feed(Buffer chunk) {
        byte[] bytes = chunk.getBytes();
        int from = 0;
        if (atStart && bytes.length > 0) {
            from = skipByteOrderMark(bytes);
        }
        for (int i = from; i < bytes.length; i++) {
            byte b = bytes[i];
            if (b == '\n' && lastWasCarriageReturn) {
                lastWasCarriageReturn = false;
                continue;
            }
            lastWasCarriageReturn = b == '\r';
            if (b == '\n' || b == '\r') {
                endLine();
            } else {
                if (line.size() >= maxLineBytes) {
                    throw new IllegalStateException("SSE line longer than " + maxLineBytes + " bytes");
                }
                line.write(b);
            }
        }
    }

    /**
     * Ends the stream. A last event that was not followed by a blank line is dispatched too:
     * the standard would drop it, but a lenient reading loses nothing a provider meant to send.
     */
    public void end() {
        if (line.size() > 0) {
            endLine();
        }
        dispatch();
    }

    private int skipByteOrderMark(byte[] bytes) {
        atStart = false;
        boolean bom = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB
                && (bytes[2] & 0xFF) == 0xBF;
        return bom ? 3 : 0;
    }

    private void endLine() {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (text.isEmpty()) {
            dispatch();
            return;
        }
        if (text.charAt(0) == ':') {
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "data" -> {
                if (data.length() + value.length() >= maxLineBytes) {
                    // Checked in chars, each at least one byte: the data never exceeds the limit in bytes.
                    throw new IllegalStateException("SSE event longer than " + maxLineBytes + " bytes");
                }
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "event" -> eventName = value;
            case "id" -> id = value.indexOf('\0') >= 0 ? id : value;
            default -> {
                // "retry" and unknown fields carry nothing the gateway uses.
            }
        }
    }

    private void dispatch() {
        if (hasData) {
            sink.accept(new SseEvent(eventName == null || eventName.isEmpty() ? null : eventName, data.toString(), id));
        }
        data.setLength(0);
        hasData = false;
        eventName = null;
        // The standard keeps the last id for reconnection; a proxy relaying events wants each event's own id.
        id = null;
    }
}
