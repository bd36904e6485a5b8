package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.internal.LoopTimeouts;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseEventTooLongException;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;

import java.time.Duration;

/**
 * The state of one streamed provider call: the first-event and idle timers, the timer of a
 * caller that stopped reading ({@code clientWriteTimeout}), the SSE parser with its event bound,
 * and the single transition to done (finished, failed, stalled or cancelled), after which the
 * request is reset and nothing more is delivered.
 *
 * <p>Confined to one Vert.x context: every callback, timer and public entry point runs there,
 * so no locks are needed.
 */
final class StreamingCall {

    private final Vertx vertx;
    private final Context context;
    private final ProviderEndpoint provider;
    private final StreamTimeouts timeouts;
    private final UpstreamClientOptions limits;
    private final Promise<UpstreamStream> ready = Promise.promise();
    private HttpClientRequest request;
    private HttpClientResponse response;
    private UpstreamStream stream;
    private Scheduler.Cancellable timer;
    /** Whether {@link #timer} is the idle timer, which an event pushes on rather than re-sets. */
    private boolean idleTimerArmed;
    /**
     * What the idle limit is timed with: the coarse clock for any limit of 100 ms or more (an event
     * is stamped with one volatile read instead of {@link System#nanoTime()}; ~0.6 % of a stream's samples).
     */
    private final Clock idleClock;
    /** When the last event came ({@link #idleClock}), or when reading resumed after a pause. */
    private long lastEventNanos;
    private Scheduler.Cancellable stallTimer;
    private boolean done;
    private boolean paused;

    StreamingCall(Vertx vertx, Context context, ProviderEndpoint provider, StreamTimeouts timeouts,
                  UpstreamClientOptions limits) {
        this.vertx = vertx;
        this.context = context;
        this.provider = provider;
        this.timeouts = timeouts;
        this.limits = limits;
        this.idleClock = Clock.system().fineEnoughFor(timeouts.idle().toNanos());
        Duration limit = timeouts.firstEvent();
        timer = LoopTimeouts.schedule(vertx, limit.toNanos(), () -> fail(new CallTimeoutException(limit)));
    }

    Future<UpstreamStream> ready() {
        return ready.future();
    }

    /** Runs {@code action} on this call's context (at once when already there). */
    void onContext(Runnable action) {
        OnContext.run(context, action);
    }

    /** Keeps the request so it can be reset; false (and reset) when the call already ended. */
    boolean attach(HttpClientRequest httpRequest) {
        request = httpRequest;
        if (done) {
            httpRequest.reset();
            return false;
        }
        return true;
    }

    void onResponse(HttpClientResponse httpResponse) {
        if (done) {
            return;
        }
        if (httpResponse.statusCode() / 100 != 2) {
            BoundedBody.read(httpResponse, limits.maxBodyBytes(), provider).onComplete(body -> fail(body.succeeded()
                    ? UpstreamFailures.status(provider, httpResponse, body.result().toString()) : body.cause()));
            return;
        }
        response = httpResponse;
        stream = new UpstreamStream(this, httpResponse.statusCode(), httpResponse.headers());
        SseParser parser = new SseParser(this::onEvent, limits.maxEventBytes());
        httpResponse.handler(buffer -> {
            try {
                parser.feed(buffer);
            } catch (SseEventTooLongException tooLong) {
                fail(new UpstreamBodyTooLargeException("an event of provider " + provider.name() + " is longer than "
                        + limits.maxEventBytes() + " bytes (server.maxSseEvent); reading stopped"));
            }
        });
        httpResponse.endHandler(v -> {
            parser.end();
            onEnd();
        });
        httpResponse.exceptionHandler(this::fail);
    }

    void fail(Throwable error) {
        if (done) {
            return;
        }
        finish();
        reset();
        Throwable mapped = UpstreamFailures.transport(error, provider);
        if (!ready.tryFail(mapped)) {
            stream.deliverFailure(mapped);
        }
    }

    void cancel() {
        if (!done) {
            finish();
            reset();
            if (!ready.future().isComplete()) {
                ready.fail(new UpstreamConnectionException("call to provider " + provider.name() + " was cancelled", null));
            }
        }
    }

    void pause() {
        if (!done && response != null && !paused) {
            paused = true;
            response.pause();
            // A caller that cannot keep up is not a silent provider: the idle clock stops meanwhile.
            cancelTimer();
            // But a caller that stops reading must not hold the provider's connection for ever.
            stallTimer = LoopTimeouts.schedule(vertx, limits.clientWriteTimeout().toNanos(), this::callerStalled);
        }
    }

    void resume() {
        if (!done && response != null && paused) {
            paused = false;
            cancelStallTimer();
            lastEventNanos = idleClock.nanoTime();
            armIdleTimer();
            response.resume();
        }
    }

    /** The caller has not read on for {@code clientWriteTimeout}: free the provider's connection, tell the relay. */
    private void callerStalled() {
        stallTimer = null;
        if (!done) {
            finish();
            reset();
            stream.deliverStall();
        }
    }

    private void onEvent(SseEvent event) {
        if (done) {
            return;
        }
        // The idle deadline moves with each event; its timer is only set again when it fires early.
        lastEventNanos = idleClock.nanoTime();
        if (!idleTimerArmed && !paused) {
            cancelTimer(); // the first event's
            armIdleTimer();
        }
        stream.deliver(event); // queued before the stream is handed out, so its first event can be looked at
        ready.tryComplete(stream);
    }

    private void onEnd() {
        if (done) {
            return;
        }
        finish();
        // The usual end follows events: no exception is made for it (its stack trace costs more than a whole event).
        if (ready.future().isComplete()) {
            stream.deliverEnd();
        } else {
            ready.fail(new UpstreamConnectionException(
                    "provider " + provider.name() + " ended the stream before sending any event", null));
        }
    }

    private void finish() {
        done = true;
        cancelTimer();
        cancelStallTimer();
    }

    private void cancelStallTimer() {
        if (stallTimer != null) {
            stallTimer.cancel();
            stallTimer = null;
        }
    }

    private void reset() {
        if (request != null) {
            request.reset();
        }
    }

    /** Arms the idle timer for the whole idle limit: one of the loop's timeouts of that delay. */
    private void armIdleTimer() {
        idleTimerArmed = true;
        timer = LoopTimeouts.schedule(vertx, timeouts.idle().toNanos(), this::idleTimerFired);
    }

    /** The idle limit has passed since the timer was set: since the last event too, or it is set for what is left. */
    private void idleTimerFired() {
        timer = null;
        idleTimerArmed = false;
        if (done || paused) {
            return;
        }
        long quiet = idleClock.nanoTime() - lastEventNanos;
        long left = timeouts.idle().toNanos() - quiet;
        if (left <= 0) {
            fail(new CallTimeoutException(timeouts.idle()));
        } else {
            // An ordinary timer: such remainders are all different, and LoopTimeouts keeps a list per delay.
            idleTimerArmed = true;
            timer = LoopTimeouts.onTimer(vertx, left, this::idleTimerFired);
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
