package io.agentfuse.gateway.sse;

import io.agentfuse.gateway.internal.ByteSearch;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
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
 * has an empty value; a blank line dispatches the event, unless it has no data. An event's data
 * stays in the UTF-8 bytes it came in ({@link SseEvent#dataBytes()}), decoded only when asked
 * for, so a multi-byte character split across buffers survives and a relayed event is never
 * decoded and encoded again. A leading
 * byte-order mark is skipped. {@code retry} and unknown fields are ignored. An event's
 * {@link SseEvent#id()} is the id given within that event only (not the standard's "last event
 * id", which matters for reconnecting browsers, not for a relaying proxy).
 *
 * <p>A line longer than {@code maxEventBytes} (default 8 MiB, {@code server.maxSseEvent}), or an
 * event whose data lines add up to more, fails with {@link SseEventTooLongException}, so a broken or
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
public final class SseParser implements EventFraming {

    /** Default upper bound on the length of one line and on the data of one event. */
    public static final int DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

    private static final byte[] DATA = "data".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT = "event".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ID = "id".getBytes(StandardCharsets.US_ASCII);

    private final Consumer<SseEvent> sink;
    private final int maxLineBytes;
    /** The start of a line that the last buffer ended inside of; most lines never need it. */
    private byte[] partial = new byte[256];
    private int partialLength;
    /** The event's data lines so far, joined by LF: {@code null} before the first, then the first line's bytes alone. */
    private byte[] data;
    private int dataLength;
    /** Whether {@link #data} joins lines (so it holds LFs): the event's data is not one line. */
    private boolean dataJoined;
    private String eventName;
    private String id;
    private boolean lastWasCarriageReturn;
    private boolean atStart = true;
    /**
     * Where a chunk in direct memory is copied to be read; reused, as no line or event keeps its
     * bytes. Grown to the chunks that come (a stream's are mostly a few hundred bytes), not made at
     * a size up front for every stream.
     */
    private byte[] scratch = new byte[0];

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
    @Override
    public void feed(Buffer chunk) {
        // Read where the bytes are (a buffer Vert.x read is on the heap), not from a copy of them.
        feed(VertxHooks.byteBuf(chunk));
    }

    /**
     * Parses the next piece of the stream from {@code chunk} (not consumed, not released), which may
     * be reused once this returns: what the parser keeps, it copies. A chunk on the heap is read where
     * it is; one in direct memory (a socket read's) through one scratch array the parser reuses.
     */
    public void feed(ByteBuf chunk) {
        int length = chunk.readableBytes();
        if (chunk.hasArray()) {
            int from = chunk.arrayOffset() + chunk.readerIndex();
            feed(chunk.array(), from, from + length);
            return;
        }
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, 2 * scratch.length)];
        }
        chunk.getBytes(chunk.readerIndex(), scratch, 0, length);
        feed(scratch, 0, length);
    }

    private void feed(byte[] bytes, int from, int to) {
        int i = from;
        if (atStart && to > from) {
            i = skipByteOrderMark(bytes, from, to);
        }
        // Line by line, not byte by byte: a line within one buffer is read straight from it.
        while (i < to) {
            if (lastWasCarriageReturn) {
                lastWasCarriageReturn = false;
                if (bytes[i] == '\n') {
                    i++;
                    continue;
                }
            }
            int end = ByteSearch.lineEnd(bytes, i, to);
            int length = end - i;
            if ((long) partialLength + length > maxLineBytes) {
                throw new SseEventTooLongException("SSE line longer than " + maxLineBytes + " bytes");
            }
            if (end == to) {
                appendPartial(bytes, i, length);
                return;
            }
            lastWasCarriageReturn = bytes[end] == '\r';
            if (partialLength == 0) {
                endLine(bytes, i, length);
            } else {
                appendPartial(bytes, i, length);
                endPartialLine();
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
    @Override
    public void end() {
        if (partialLength > 0) {
            endPartialLine();
        }
        dispatch();
    }

    private void endPartialLine() {
        int length = partialLength;
        partialLength = 0;
        endLine(partial, 0, length);
    }

    private int skipByteOrderMark(byte[] bytes, int from, int to) {
        atStart = false;
        boolean bom = to - from >= 3 && (bytes[from] & 0xFF) == 0xEF && (bytes[from + 1] & 0xFF) == 0xBB
                && (bytes[from + 2] & 0xFF) == 0xBF;
        return bom ? from + 3 : from;
    }

    /** One complete line, {@code length} bytes at {@code from}; the bytes may be reused once it returns. */
    private void endLine(byte[] line, int from, int length) {
        if (length == 0) {
            dispatch();
            return;
        }
        if (line[from] == ':') {
            return;
        }
        int end = from + length;
        int colon = from;
        while (colon < end && line[colon] != ':') {
            colon++;
        }
        int valueStart = colon < end ? colon + 1 : end;
        if (valueStart < end && line[valueStart] == ' ') {
            valueStart++;
        }
        int fieldLength = colon - from;
        if (isField(line, from, fieldLength, DATA)) {
            appendData(line, valueStart, end - valueStart);
        } else if (isField(line, from, fieldLength, EVENT)) {
            eventName = new String(line, valueStart, end - valueStart, StandardCharsets.UTF_8);
        } else if (isField(line, from, fieldLength, ID)) {
            String value = new String(line, valueStart, end - valueStart, StandardCharsets.UTF_8);
            id = value.indexOf('\0') >= 0 ? id : value;
        }
        // "retry" and unknown fields carry nothing the gateway uses.
    }

    private static boolean isField(byte[] line, int from, int length, byte[] name) {
        return length == name.length && Arrays.equals(line, from, from + length, name, 0, length);
    }

    private void appendData(byte[] line, int from, int length) {
        if ((long) dataLength + length >= maxLineBytes) {
            throw new SseEventTooLongException("SSE event longer than " + maxLineBytes + " bytes");
        }
        if (data == null) {
            // Most events have one data line: a copy of its bytes becomes the event's data as it is.
            data = Arrays.copyOfRange(line, from, from + length);
            dataLength = length;
            return;
        }
        int total = dataLength + 1 + length;
        if (total > data.length) {
            data = Arrays.copyOf(data, (int) Math.max(total, Math.min((long) maxLineBytes, data.length * 2L)));
        }
        dataJoined = true;
        data[dataLength] = '\n';
        System.arraycopy(line, from, data, dataLength + 1, length);
        dataLength = total;
    }

    private void dispatch() {
        if (data != null) {
            byte[] bytes = dataLength == data.length ? data : Arrays.copyOf(data, dataLength);
            sink.accept(SseEvent.ofBytes(eventName == null || eventName.isEmpty() ? null : eventName, bytes, id,
                    !dataJoined));
        }
        data = null;
        dataLength = 0;
        dataJoined = false;
        eventName = null;
        // The standard keeps the last id for reconnection; a proxy relaying events wants each event's own id.
        id = null;
    }
}
