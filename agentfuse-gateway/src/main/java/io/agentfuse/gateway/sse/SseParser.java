package io.agentfuse.gateway.sse;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
    /** The start of a line that the last buffer ended inside of; most lines never need it. */
    private byte[] partial = new byte[256];
    private int partialLength;
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
        int i = 0;
        if (atStart && bytes.length > 0) {
            i = skipByteOrderMark(bytes);
        }
        // Line by line, not byte by byte: a line within one buffer is decoded straight from it.
        while (i < bytes.length) {
            if (lastWasCarriageReturn) {
                lastWasCarriageReturn = false;
                if (bytes[i] == '\n') {
                    i++;
                    continue;
                }
            }
            int end = i;
            while (end < bytes.length && bytes[end] != '\n' && bytes[end] != '\r') {
                end++;
            }
            int length = end - i;
            if ((long) partialLength + length > maxLineBytes) {
                throw new IllegalStateException("SSE line longer than " + maxLineBytes + " bytes");
            }
            if (end == bytes.length) {
                appendPartial(bytes, i, length);
                return;
            }
            lastWasCarriageReturn = bytes[end] == '\r';
            if (partialLength == 0) {
                endLine(new String(bytes, i, length, StandardCharsets.UTF_8));
            } else {
                appendPartial(bytes, i, length);
                endLine(takePartial());
            }
            i = end + 1;
        }
    }

    private void appendPartial(byte[] bytes, int from, int length) {
        if (partialLength + length > partial.length) {
            partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + length));
        }
        System.arraycopy(bytes, from, partial, partialLength, length);
        partialLength += length;
    }

    /**
     * Ends the stream. A last event that was not followed by a blank line is dispatched too:
     * the standard would drop it, but a lenient reading loses nothing a provider meant to send.
     */
    public void end() {
        if (partialLength > 0) {
            endLine(takePartial());
        }
        dispatch();
    }

    private String takePartial() {
        String line = new String(partial, 0, partialLength, StandardCharsets.UTF_8);
        partialLength = 0;
        return line;
    }

    private int skipByteOrderMark(byte[] bytes) {
        atStart = false;
        boolean bom = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB
                && (bytes[2] & 0xFF) == 0xBF;
        return bom ? 3 : 0;
    }

    private void endLine(String text) {
        if (text.isEmpty()) {
            dispatch();
            return;
        }
        if (text.charAt(0) == ':') {
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        int valueStart = colon < 0 ? text.length() : colon + 1;
        if (valueStart < text.length() && text.charAt(valueStart) == ' ') {
            valueStart++;
        }
        String value = text.substring(valueStart);
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
