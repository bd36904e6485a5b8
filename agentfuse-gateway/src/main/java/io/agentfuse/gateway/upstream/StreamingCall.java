package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.sse.EventFraming;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseEventTooLongException;
import io.agentfuse.gateway.upstream.StreamOpening.Stage;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.RequestOptions;

/**
 * One streamed provider call on the gateway's HTTP client ({@link UpstreamHttp}), the answer's events
 * framed as its chunks arrive (SSE, or the dialect's {@link EventFraming}: Bedrock's binary event
 * stream). Its state: the first-event and idle limits ({@link EventTimer}), the timer of a caller that stopped reading
 * ({@code clientWriteTimeout}), the framing with its event bound, the events kept before the answer
 * begins ({@link OpeningEvents}), and the single transition to done
 * (finished, failed, stalled or cancelled), after which the request is reset (closing its HTTP/1.1
 * connection) unless the answer was read to its end, and nothing more is delivered. A non-2xx answer
 * is read whole, within the body limit, and fails the call. Back-pressure: {@link #pause()} pauses the
 * answer, so that the client stops reading its connection; what was already parsed is kept by the
 * {@link UpstreamStream} until {@link #resume()}. Confined to one event-loop context (no locks).
 */
final class StreamingCall {

    private final Scheduler timers;
    private final Context context;
    private final ProviderEndpoint provider;
    /** The call until it is sent: its bytes are then the client's, and not kept for the stream's length. */
    private UpstreamRequest unsent;
    private final UpstreamClientOptions limits;
    /** The events before the answer begins, kept; let go once it has begun, with the watchers of the opening. */
    private OpeningEvents opening;
    /** Told when the call is cut after its request went out and before the stream was taken. */
    private final Runnable cutOffAfterSent;
    private final Promise<UpstreamStream> ready = Promise.promise();
    /** The client stack it was sent on, which tells its egress proxy's refusal from an answer. */
    private UpstreamHttp http;
    private HttpClientRequest request;
    private HttpClientResponse response;
    /** The body of a non-2xx answer, read whole before the call fails with it. */
    private BoundedBody refusal;
    private EventFraming parser;
    private Buffer sending; // encoded once, so that a signature over them holds for what goes out
    private UpstreamStream stream;
    private final EventTimer eventTimer;
    private Scheduler.Cancellable stallTimer;
    private boolean done;
    /** Whether the provider's answer was read to its end: its connection then goes back to its pool. */
    private boolean ended;
    private boolean paused;
    /** Whether the stream is handed to its caller ({@link #taken}), who accounts for it from then on. */
    private boolean taken;

    /** @param context an event-loop context: the call's callbacks and its caller's handlers run there */
    StreamingCall(Scheduler timers, Context context, UpstreamRequest call, StreamTimeouts timeouts,
                  UpstreamClientOptions limits, StreamOpening opening, Runnable cutOffAfterSent) {
        this.opening = new OpeningEvents(opening, limits.maxEventBytes());
        this.cutOffAfterSent = cutOffAfterSent;
        this.timers = timers;
        this.eventTimer = new EventTimer(timers, System::nanoTime, timeouts, this::onContext, this::expired);
        this.context = context;
        this.provider = call.provider();
        this.unsent = call;
        this.limits = limits;
    }

    Future<UpstreamStream> ready() {
        return ready.future();
    }

    /** Runs {@code action} on this call's context (at once when already there). */
    void onContext(Runnable action) {
        OnContext.run(context, action);
    }

    /** Sends the call on {@code http}, signed first by a {@code signer} (or null); the first-event limit runs from now. */
    void start(UpstreamHttp http, RequestOptions options, ProviderRequests.Signer signer) {
        eventTimer.start();
        this.http = http;
        sending = unsent.bytes();
        unsent = null;
        ProviderRequests.lease(http, options, sending, signer, context, provider, () -> done, this::fail, this::leased);
    }

    private void leased(AsyncResult<HttpClientRequest> leased) {
        if (leased.failed()) {
            fail(UpstreamFailures.of(provider, leased.cause()));
            return;
        }
        request = leased.result();
        if (done) {
            request.reset(); // ended while it waited for the connection: never sent
            return;
        }
        Buffer body = sending;
        sending = null; // not kept for the stream's length: a long conversation would live as long as its answer
        ProviderRequests.send(request, body).onComplete(this::answered);
    }

    private void answered(AsyncResult<HttpClientResponse> answered) {
        if (answered.failed()) {
            fail(UpstreamFailures.of(provider, answered.cause()));
            return;
        }
        response = answered.result();
        if (done) {
            close();
            return;
        }
        try {
            UpstreamFailures.checkHead(provider, http, response);
            if (response.statusCode() / 100 != 2) {
                refusal = BoundedBody.of(response.getHeader(HttpHeaders.CONTENT_LENGTH), limits.maxBodyBytes(), provider);
            } else {
                stream = new UpstreamStream(this, response.statusCode(), response.headers(), limits.clientWriteTimeout());
                parser = provider.dialect().eventFraming(this::onEvent, limits.maxEventBytes());
            }
        } catch (UpstreamBodyTooLargeException | MalformedAnswerException | UpstreamAuthException unreadable) {
            fail(unreadable);
            return;
        }
        response.handler(this::take)
                .exceptionHandler(cause -> fail(UpstreamFailures.of(provider, cause)))
                .endHandler(ignored -> end());
    }

    /** A piece of the answer's body. */
    private void take(Buffer piece) {
        if (done) {
            return;
        }
        try {
            if (refusal != null) {
                refusal.add(piece);
            } else {
                parser.feed(piece);
            }
        } catch (UpstreamBodyTooLargeException | SseEventTooLongException | MalformedAnswerException broken) {
            fail(UpstreamFailures.ofReading(provider, broken, limits.maxEventBytes()));
        } catch (OutOfMemoryError full) {
            fail(full); // an event the heap has no room for ends the call now, as a complete call's answer does
        }
    }

    /** The answer read to its end: the stream ends (or the refusal fails the call); the client keeps the connection. */
    private void end() {
        ended = true;
        if (done) {
            return;
        }
        if (refusal != null) {
            fail(UpstreamFailures.status(provider, response.statusCode(), response.headers(), refusal.body().toString()));
            return;
        }
        try {
            parser.end();
        } catch (MalformedAnswerException cut) { // a binary framing cut inside a frame (Bedrock's event stream)
            fail(UpstreamFailures.ofReading(provider, cut, limits.maxEventBytes()));
            return;
        }
        if (done) {
            return; // the last event's delivery ended the call (its caller left, say)
        }
        finish();
        // The usual end follows events: no exception is made for it (its stack trace costs more than a whole event).
        if (ready.future().isComplete()) {
            stream.deliverEnd();
        } else {
            ready.fail(opening.endedEarly(provider)); // a cut, or an answer that came whole without what it needs
        }
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
            tellCutOff();
            finish();
            close();
            ready.tryFail(new UpstreamConnectionException("call to provider " + provider.name() + " was cancelled", null));
        }
    }

    /**
     * Stops reading the answer. Also after the provider's end: the stream may still hold events for
     * the caller, and a caller that never reads them on must still be cut off.
     */
    void pause() {
        if (stream != null && !paused) {
            paused = true;
            if (!done) {
                response.pause();
                // A caller that cannot keep up is not a silent provider: the idle clock stops meanwhile.
                eventTimer.stop();
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
                eventTimer.resume();
                response.resume();
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
        // An event before the answer begins (a message_start) is kept, and the first-event limit runs on
        // until the model is at work.
        Stage stage = opening == null ? Stage.BEGUN : opening.after(event);
        eventTimer.event(stage != Stage.PREAMBLE);
        stream.deliver(event); // queued before the stream is handed out, so its first events can be looked at
        if (stage == Stage.BEGUN && opening != null) {
            // Its watchers (the attempt, and through it every step's request) are not kept for the stream's length.
            opening = null;
            ready.tryComplete(stream);
        }
    }

    /** The first-event or idle limit passed: the call fails with it. */
    private void expired(CallTimeoutException timeout) {
        if (!done) {
            tellCutOff();
        }
        fail(timeout);
    }

    /** Whether the stream is in its caller's hands (see {@link UpstreamStream#handTo}). */
    void taken(boolean taken) {
        this.taken = taken;
    }

    /**
     * Tells of a cut of the running call, unless its request never went out (it is kept and sent in
     * one step once leased) or the stream was taken (its taker accounts for it).
     */
    private void tellCutOff() {
        if (request != null && !taken) {
            cutOffAfterSent.run();
        }
    }

    /** Nothing more comes from the provider; a stall timer set while paused runs on (see {@link #pause()}). */
    private void finish() {
        done = true;
        eventTimer.stop();
    }

    private void cancelStallTimer() {
        if (stallTimer != null) {
            stallTimer.cancel();
            stallTimer = null;
        }
    }

    /** Resets the request unless its answer was read to its end: the provider sees the caller leave. */
    private void close() {
        if (request != null && !ended) {
            UpstreamHttp.abandon(request);
        }
    }
}
