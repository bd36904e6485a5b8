package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.internal.CallerWritability;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How a {@link StreamRelay} writes to the caller: the events of one upstream read as one write (one
 * chunk, one flush) instead of one per event; the last events and the end of the body together; and
 * a failed stream's last events followed by closing the connection, never by a clean end of the
 * chunked body, which clients such as LangChain4j's would take for a complete (truncated) answer.
 * Tells its relay when the caller takes no more for now ({@link CallerWritability}: by bytes, not by
 * Vert.x's count of writes), so that the relay pauses the provider.
 * A failed stream's last write waits at most {@code server.clientWriteTimeout} for a caller that
 * stopped reading; then the connection is reset.
 *
 * <p>Confined to the request's context, like its relay.
 */
final class RelayWriter {

    /** The most bytes of events kept for one write. */
    private static final int MAX_UNWRITTEN_BYTES = 32 * 1024;

    private final HttpServerResponse response;
    private final HttpConnection connection;
    private final Context context;
    /** Runs a task of this writer's on the context, as its relay runs its own (a bug ends the stream). */
    private final Consumer<Runnable> onContext;
    private final Runnable queueFull;
    /** How long the last write of a failed stream may wait for the caller to read ({@code server.clientWriteTimeout}). */
    private final Duration clientWriteTimeout;
    /**
     * Events translated but not yet written: one write per batch that arrived together, in a buffer
     * made at the write for the batch's length (a buffer made at the first event grew with the batch,
     * copying itself at each doubling: for the bench's burst of 21 events, 1 KB to 8 KB).
     */
    private final List<SseEvent> unwritten = new ArrayList<>();
    /** The wire length of {@link #unwritten} (sizes the write's buffer; exact for the usual relayed event). */
    private int unwrittenBytes;
    /** Whether a task to write {@link #unwritten} is queued on the context. */
    private boolean writeQueued;
    private boolean closedOnPurpose;

    /**
     * @param queueFull pauses the provider: the caller takes no more
     * @param resume    resumes it: run once the caller takes more again (its write buffer drained, or
     *                  Vert.x's queue), on the context
     */
    RelayWriter(HttpServerResponse response, HttpConnection connection, Context context, Consumer<Runnable> onContext,
                Runnable queueFull, Runnable resume, Duration clientWriteTimeout) {
        this.clientWriteTimeout = clientWriteTimeout;
        this.response = response;
        this.connection = connection;
        this.context = context;
        this.onContext = onContext;
        this.queueFull = () -> {
            queueFull.run();
            CallerWritability.whenItTakesMore(connection, response, () -> onContext.accept(resume));
        };
    }

    /** Whether a failed stream was ended by closing the connection (the caller did not leave). */
    boolean closedOnPurpose() {
        return closedOnPurpose;
    }

    /**
     * Keeps {@code events} for the write that follows the batch they arrived in: the events of one
     * upstream read are parsed and relayed one after another on this context, and the task queued
     * by the first of them runs after the last, so the caller gets one write (one chunk, one
     * flush) per batch instead of one per event.
     */
    void buffer(List<SseEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        if (!writeQueued) {
            writeQueued = true;
            context.runOnContext(v -> onContext.accept(() -> {
                writeQueued = false;
                flush();
            }));
        }
        for (int i = 0; i < events.size(); i++) {
            SseEvent event = events.get(i);
            unwritten.add(event);
            unwrittenBytes += event.wireLength();
        }
        if (unwrittenBytes >= MAX_UNWRITTEN_BYTES) {
            // A fast provider's batch can be large: written in pieces, so that backpressure
            // (pausing the provider) works as promptly as for single events.
            flush();
        }
    }

    private void flush() {
        if (unwritten.isEmpty()) {
            return;
        }
        if (response.closed() || response.ended()) {
            forgetUnwritten();
            return;
        }
        response.write(takeUnwritten(0));
        if (CallerWritability.takesNoMore(connection, response)) {
            queueFull.run();
        }
    }

    /** Writes what is unwritten and {@code events}, and ends the response: a complete stream. */
    void endWith(List<SseEvent> events) {
        Buffer frame = lastFrame(events);
        if (!response.closed() && !response.ended()) {
            if (frame.length() == 0) {
                response.end();
            } else {
                response.end(frame);
            }
        }
    }

    /**
     * Writes what is unwritten and the error {@code events}, then closes the connection instead of
     * ending the chunked body, so that every HTTP client sees the stream fail rather than end.
     */
    void failWith(List<SseEvent> events) {
        if (response.closed() || response.ended()) {
            return;
        }
        closedOnPurpose = true;
        Buffer frame = lastFrame(events);
        if (frame.length() == 0) {
            connection.close();
            return;
        }
        // A caller that has stopped reading never lets the write complete: it is cut off after
        // clientWriteTimeout, as a stalled caller of a running stream is, not by the connection's own timeouts.
        long cutOff = context.owner().setTimer(Math.max(1, clientWriteTimeout.toMillis()), id -> Disconnect.now(connection));
        response.write(frame).onComplete(written -> {
            context.owner().cancelTimer(cutOff);
            connection.close();
        });
    }

    /** What is still unwritten, as one buffer with room for {@code moreBytes}; nothing is unwritten after. */
    private Buffer takeUnwritten(int moreBytes) {
        Buffer frame = Buffer.buffer(unwrittenBytes + moreBytes);
        for (int i = 0; i < unwritten.size(); i++) {
            unwritten.get(i).appendTo(frame);
        }
        forgetUnwritten();
        return frame;
    }

    private void forgetUnwritten() {
        unwritten.clear();
        unwrittenBytes = 0;
    }

    /** What is still unwritten followed by {@code events}, as one buffer. */
    private Buffer lastFrame(List<SseEvent> events) {
        int more = 0;
        for (SseEvent event : events) {
            more += event.wireLength();
        }
        Buffer frame = takeUnwritten(more);
        events.forEach(event -> event.appendTo(frame));
        return frame;
    }
}
