package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseEventTooLongException;
import io.agentfuse.gateway.sse.SseParser;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.Context;

import java.time.Duration;

/**
 * One streamed provider call on a connection of {@link ProviderConnections}, the pools complete
 * calls use: the request's bytes written as a {@link CompleteCall} writes them, the answer's SSE
 * events parsed as its chunks arrive. Its state: the first-event and idle timers, the timer of a
 * caller that stopped reading ({@code clientWriteTimeout}), the SSE parser with its event bound,
 * and the single transition to done (finished, failed, stalled or cancelled), after which the
 * connection is closed (or, after a stream read to its end, given back to its pool) and nothing
 * more is delivered. A non-2xx answer is read whole, within the body limit, and fails the call.
 *
 * <p>Back-pressure: {@link #pause()} stops reading the connection; what its last read already
 * brought is parsed and kept by the {@link UpstreamStream} until {@link #resume()}.
 *
 * <p>Confined to one event-loop context: every callback, timer and entry point runs there (the
 * connection's answer is handled inside that context, as Vert.x runs its own handlers), so no locks
 * are needed.
 */
final class StreamingCall implements ProviderConnections.Lease, ProviderConnections.Receiver {

    private final Scheduler timers;
    private final Context context;
    private final UpstreamRequest call;
    private final StreamTimeouts timeouts;
    private final UpstreamClientOptions limits;
    private final Promise<UpstreamStream> ready = Promise.promise();
    /** {@link #handle}, made once: a method reference per chunk would be an object per chunk. */
    private final Handler<HttpObject> handler = this::handle;
    private ProviderRequests.CallHead callHead;
    private ProviderConnections.Pool pool;
    private Channel connection;
    private HttpResponse head;
    /** The body of a non-2xx answer, read whole before the call fails with it. */
    private BoundedBody refusal;
    private SseParser parser;
    private UpstreamStream stream;
    private Scheduler.Cancellable timer;
    /** Whether {@link #timer} is the idle timer, which an event pushes on rather than re-sets. */
    private boolean idleTimerArmed;
    /** When the last event came ({@link System#nanoTime()}), or when reading resumed after a pause. */
    private long lastEventNanos;
    private Scheduler.Cancellable stallTimer;
    private boolean done;
    private boolean paused;

    /** @param context an event-loop context: the call's callbacks and its caller's handlers run there */
    StreamingCall(Scheduler timers, Context context, UpstreamRequest call, StreamTimeouts timeouts,
                  UpstreamClientOptions limits) {
        this.timers = timers;
        this.context = context;
        this.call = call;
        this.timeouts = timeouts;
        this.limits = limits;
    }

    Future<UpstreamStream> ready() {
        return ready.future();
    }

    /** Runs {@code action} on this call's context (at once when already there). */
    void onContext(Runnable action) {
        OnContext.run(context, action);
    }

    /**
     * Sends the call on a connection of the pool {@code pools} gives for its loop, with the head
     * {@code head}; the first-event limit runs from now, the wait for a connection included.
     * Must be called on the call's context.
     */
    void start(ProviderConnections pools, ProviderRequests.CallHead head) {
        Duration limit = timeouts.firstEvent();
        timer = timers.schedule(() -> onContext(() -> fail(new CallTimeoutException(limit))), limit.toNanos());
        callHead = head;
        pool = pools.pool(VertxHooks.eventLoop(context), head.address());
        pool.lease(this);
    }

    /** Never after the call ended: the pool asks {@link #abandoned()} first, and the call ends only on this loop. */
    @Override
    public void granted(Channel granted) {
        connection = granted;
        ProviderConnections.receiver(granted, this);
        callHead.write(granted, call.bytes());
    }

    @Override
    public void failed(Throwable why) {
        VertxHooks.dispatch(context, why, this::fail);
    }

    @Override
    public boolean abandoned() {
        return done;
    }

    @Override
    public void received(HttpObject part) {
        // On the connection's loop, which is the context's: handled inside the context, so that the
        // caller's handlers find themselves on it instead of queueing a task to get there.
        VertxHooks.dispatch(context, part, handler);
    }

    @Override
    public void broken(Throwable cause) {
        VertxHooks.dispatch(context, cause, ignored -> {
            Channel broken = connection;
            connection = null;
            if (broken != null) {
                broken.close();
            }
            fail(UpstreamFailures.broken(call.provider(), cause));
        });
    }

    private void handle(HttpObject part) {
        if (done) {
            return;
        }
        if (part.decoderResult().isFailure()) {
            fail(UpstreamFailures.notHttp(call.provider(), part.decoderResult().cause()));
            return;
        }
        if (part instanceof HttpResponse response && !begin(response)) {
            return;
        }
        if (part instanceof HttpContent content) {
            if (content.content().isReadable() && !take(content.content())) {
                return;
            }
            if (content instanceof LastHttpContent) {
                end();
            }
        }
    }

    /** The answer's head: a stream begins, or a refusal whose body is read first. False when the call ended. */
    private boolean begin(HttpResponse response) {
        head = response;
        if (response.status().code() / 100 != 2) {
            try {
                refusal = BoundedBody.of(response.headers().get(HttpHeaderNames.CONTENT_LENGTH), limits.maxBodyBytes(),
                        call.provider());
            } catch (UpstreamBodyTooLargeException tooLarge) {
                fail(tooLarge);
                return false;
            }
            return true;
        }
        stream = new UpstreamStream(this, response.status().code(), VertxHooks.headers(response.headers()));
        parser = new SseParser(this::onEvent, limits.maxEventBytes());
        return true;
    }

    /** A piece of the answer's body, in a buffer Netty reuses once this returns. False when the call ended with it. */
    private boolean take(ByteBuf piece) {
        try {
            if (refusal != null) {
                refusal.add(BoundedBody.copyOf(piece));
            } else {
                parser.feed(piece); // it copies what it keeps
            }
        } catch (UpstreamBodyTooLargeException tooLarge) {
            fail(tooLarge);
        } catch (SseEventTooLongException tooLong) {
            fail(new UpstreamBodyTooLargeException("an event of provider " + call.provider().name() + " is longer than "
                    + limits.maxEventBytes() + " bytes (server.maxSseEvent); reading stopped"));
        }
        return !done;
    }

    /** The answer read to its end: the stream ends (or the refusal fails the call), and the connection is free. */
    private void end() {
        if (refusal != null) {
            Buffer body = refusal.body();
            release();
            fail(UpstreamFailures.status(call.provider(), head.status().code(), VertxHooks.headers(head.headers()),
                    body.toString()));
            return;
        }
        parser.end();
        if (done) {
            return; // the last event's delivery ended the call (its caller left, say)
        }
        finish();
        release();
        // The usual end follows events: no exception is made for it (its stack trace costs more than a whole event).
        if (ready.future().isComplete()) {
            stream.deliverEnd();
        } else {
            ready.fail(new UpstreamConnectionException(
                    "provider " + call.provider().name() + " ended the stream before sending any event", null));
        }
    }

    /** Gives the connection, its answer read whole, back to its pool (or closes it, when the answer asked for that). */
    private void release() {
        Channel free = connection;
        connection = null;
        pool.answered(free, head);
    }

    private void fail(Throwable error) {
        if (done) {
            return;
        }
        finish();
        close();
        if (!ready.tryFail(error)) {
            stream.deliverFailure(error);
        }
    }

    void cancel() {
        cancelStallTimer();
        if (!done) {
            finish();
            close();
            if (!ready.future().isComplete()) {
                ready.fail(new UpstreamConnectionException("call to provider " + call.provider().name()
                        + " was cancelled", null));
            }
        }
    }

    /**
     * Stops reading the connection. Also after the provider's end: the stream may still hold
     * events for the caller, and a caller that never reads them on must still be cut off.
     */
    void pause() {
        if (stream != null && !paused) {
            paused = true;
            if (!done) {
                connection.config().setAutoRead(false);
                // A caller that cannot keep up is not a silent provider: the idle clock stops meanwhile.
                cancelTimer();
            }
            // But a caller that stops reading must not hold the provider's connection (or the gateway) for ever.
            stallTimer = timers.schedule(() -> onContext(this::callerStalled), limits.clientWriteTimeout().toNanos());
        }
    }

    void resume() {
        if (stream != null && paused) {
            paused = false;
            cancelStallTimer();
            if (!done) {
                lastEventNanos = System.nanoTime();
                armIdleTimer();
                connection.config().setAutoRead(true);
            }
        }
    }

    /** The caller has not read on for {@code clientWriteTimeout}: free the provider's connection, tell the relay. */
    private void callerStalled() {
        stallTimer = null;
        if (!done) {
            finish();
            close();
        }
        stream.deliverStall();
    }

    private void onEvent(SseEvent event) {
        if (done) {
            return;
        }
        // The idle deadline moves with each event; its timer is only set again when it fires early.
        lastEventNanos = System.nanoTime();
        if (!idleTimerArmed && !paused) {
            cancelTimer(); // the first event's
            armIdleTimer();
        }
        stream.deliver(event); // queued before the stream is handed out, so its first event can be looked at
        ready.tryComplete(stream);
    }

    /**
     * Nothing more comes from the provider. A stall timer set while paused runs on: what the
     * stream still holds for a caller that stopped reading is dropped when it fires.
     */
    private void finish() {
        done = true;
        cancelTimer();
    }

    private void cancelStallTimer() {
        if (stallTimer != null) {
            stallTimer.cancel();
            stallTimer = null;
        }
    }

    /** Closes the connection, if the call still has one: the provider sees the caller leave. */
    private void close() {
        Channel abandoned = connection;
        connection = null;
        if (abandoned != null) {
            ProviderConnections.abandon(abandoned);
        }
    }

    /** Arms the idle timer for the whole idle limit: one of the loop's timeouts of that delay. */
    private void armIdleTimer() {
        idleTimerArmed = true;
        timer = timers.schedule(() -> onContext(this::idleTimerFired), timeouts.idle().toNanos());
    }

    /** The idle limit has passed since the timer was set: since the last event too, or it is set for what is left. */
    private void idleTimerFired() {
        timer = null;
        idleTimerArmed = false;
        if (done || paused) {
            return;
        }
        long quiet = System.nanoTime() - lastEventNanos;
        long left = timeouts.idle().toNanos() - quiet;
        if (left <= 0) {
            fail(new CallTimeoutException(timeouts.idle()));
        } else {
            idleTimerArmed = true;
            timer = timers.schedule(() -> onContext(this::idleTimerFired), left);
        }
    }

    private void cancelTimer() {
        idleTimerArmed = false;
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }
}
