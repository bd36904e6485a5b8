package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Predicate;

/**
 * A provider's streamed answer that has begun: its status, headers and SSE events, delivered in
 * order, then exactly one of end or failure.
 *
 * <p>Events that arrive before {@link #handler} is set are kept and delivered when it is, so
 * nothing is lost between the future completing and the caller attaching handlers. A failure
 * after the first event (an idle timeout as {@link io.agentfuse.core.timeout.CallTimeoutException}, a
 * broken connection as {@link UpstreamConnectionException}) goes to {@link #exceptionHandler}.
 * {@link #cancel()} closes the upstream request (and with HTTP/1.1 its connection) — call it
 * when the gateway's own caller goes away; after it nothing more is delivered.
 *
 * <p>Thread-safe: methods may be called from any thread; handlers run on the call's event loop.
 *
 * <pre>{@code
 * stream.handler(event -> relay(event))
 *       .exceptionHandler(error -> endWithErrorEvent(error))
 *       .endHandler(v -> clientResponse.end());
 * clientResponse.closeHandler(v -> stream.cancel());
 * }</pre>
 */
public final class UpstreamStream {

    private final StreamingCall call;
    private final int status;
    private final MultiMap headers;
    private final Duration clientWriteTimeout;
    private final Deque<SseEvent> pending = new ArrayDeque<>();
    private volatile SseEvent first;
    private Handler<SseEvent> handler;
    private Handler<Void> endHandler;
    private Handler<Throwable> exceptionHandler;
    private Handler<Void> stallHandler;
    /** Whether the caller paused: events wait in {@link #pending} until it resumes. */
    private boolean held;
    private boolean ended;
    private Throwable failure;
    private boolean terminalDelivered;

    UpstreamStream(StreamingCall call, int status, MultiMap headers, Duration clientWriteTimeout) {
        this.call = call;
        this.clientWriteTimeout = clientWriteTimeout;
        this.status = status;
        this.headers = HttpHeaders.headers().addAll(headers);
    }

    /** The HTTP status (2xx). */
    public int status() {
        return status;
    }

    /** A copy of the response headers. */
    public MultiMap headers() {
        return HttpHeaders.headers().addAll(headers);
    }

    /** Receives each SSE event, starting with the first one (already received). */
    public UpstreamStream handler(Handler<SseEvent> handler) {
        call.onContext(() -> {
            this.handler = handler;
            drain();
        });
        return this;
    }

    /** Called once when the provider ended the stream normally. */
    public UpstreamStream endHandler(Handler<Void> endHandler) {
        call.onContext(() -> {
            this.endHandler = endHandler;
            drain();
        });
        return this;
    }

    /** Called once when the stream failed after it began. */
    public UpstreamStream exceptionHandler(Handler<Throwable> exceptionHandler) {
        call.onContext(() -> {
            this.exceptionHandler = exceptionHandler;
            drain();
        });
        return this;
    }

    /**
     * Called once when the stream stayed {@link #pause() paused} longer than the client's
     * {@code clientWriteTimeout}: the provider call has been cancelled (its connection freed),
     * nothing else is delivered, and the caller that stopped reading should be cut off.
     */
    public UpstreamStream stallHandler(Handler<Void> stallHandler) {
        call.onContext(() -> this.stallHandler = stallHandler);
        return this;
    }

    /**
     * Stops delivering events and reading from the provider (backpressure): what was already read
     * waits here. The idle timeout is suspended meanwhile, and after {@code clientWriteTimeout}
     * without {@link #resume()} the call is cancelled (see {@link #stallHandler}).
     */
    public void pause() {
        call.onContext(() -> {
            held = true;
            call.pause();
        });
    }

    /** Delivers what waited, then resumes reading, after {@link #pause()}. */
    public void resume() {
        call.onContext(() -> {
            held = false;
            drain();
            if (!held) { // a handler may have paused again
                call.resume();
            }
        });
    }

    /**
     * Hands this stream to {@code taker}, which says whether it took it (on the call's event loop).
     * From the hand-over on a cut is the taker's to account for, one it makes while it takes the
     * stream (its first events relayed at once) included; a stream it did not take, given up on
     * before, is cancelled as a call cut off.
     */
    void handTo(Predicate<UpstreamStream> taker) {
        call.taken(true);
        if (!taker.test(this)) {
            call.taken(false);
            cancel();
        }
    }

    /** Closes the upstream request; no handler is called afterwards. */
    public void cancel() {
        call.onContext(() -> {
            call.cancel();
            pending.clear();
            terminalDelivered = true;
        });
    }

    /**
     * How long the caller may stop reading this stream ({@code server.clientWriteTimeout}): also the
     * longest a relay waits for its last write to a caller before it cuts the caller off.
     */
    public Duration clientWriteTimeout() {
        return clientWriteTimeout;
    }

    /** The stream's first event (it is also delivered to {@link #handler}); {@code null} before it arrived. */
    public SseEvent firstEvent() {
        return first;
    }

    void deliver(SseEvent event) {
        if (first == null) {
            first = event;
        }
        pending.addLast(event);
        drain();
    }

    void deliverEnd() {
        ended = true;
        drain();
    }

    void deliverStall() {
        pending.clear();
        if (!terminalDelivered) {
            terminalDelivered = true;
            if (stallHandler != null) {
                stallHandler.handle(null);
            }
        }
    }

    void deliverFailure(Throwable error) {
        failure = error;
        drain();
    }

    private void drain() {
        while (handler != null && !held && !pending.isEmpty() && !terminalDelivered) {
            handler.handle(pending.removeFirst());
        }
        if (!pending.isEmpty() || terminalDelivered) {
            return;
        }
        if (failure != null && exceptionHandler != null) {
            terminalDelivered = true;
            exceptionHandler.handle(failure);
        } else if (ended && failure == null && endHandler != null) {
            terminalDelivered = true;
            endHandler.handle(null);
        }
    }
}
