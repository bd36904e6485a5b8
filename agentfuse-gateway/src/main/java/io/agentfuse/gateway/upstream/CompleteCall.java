package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.internal.CancellingFuture;
import io.agentfuse.gateway.internal.LoopTimeouts;
import io.agentfuse.gateway.internal.OnContext;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One complete (not streamed) provider call: its timeout, the reset that frees its connection
 * when it times out, is cancelled or its answer grows too large, and the check that a 2xx answer
 * is a well-formed answer of the provider's dialect. The call's {@link #answer()} completes once,
 * with what the caller's mapper makes of the answer or a failure in the terms of
 * {@code agentfuse-core} ({@link UpstreamFailures}); cancelling it resets the request.
 *
 * <p>Each step's callback leads straight to the next (connection, sent request, head, body
 * chunks, end): one future for the whole call, the caller's, rather than a future per step
 * composed into a chain that a small request pays for step by step.
 *
 * <p>Confined to one Vert.x context: started there, and every callback and timer runs there.
 */
final class CompleteCall<T> {

    private final Vertx vertx;
    private final Context context;
    private final UpstreamRequest call;
    private final long maxBodyBytes;
    private final Function<UpstreamResponse, T> mapper;
    private final CancellingFuture<T> answer;
    private Scheduler.Cancellable timer;
    private HttpClientRequest request;
    private HttpClientResponse response;
    private BoundedBody body;
    private boolean resetWanted;

    /**
     * @param mapper what the caller makes of the answer, on the call's context; what it throws
     *               fails the call
     */
    CompleteCall(Vertx vertx, Context context, UpstreamRequest call, long maxBodyBytes,
                 Function<UpstreamResponse, T> mapper) {
        this.vertx = vertx;
        this.context = context;
        this.call = call;
        this.maxBodyBytes = maxBodyBytes;
        this.mapper = mapper;
        this.answer = new CancellingFuture<>(() -> OnContext.run(context, this::abandon));
    }

    /** What the mapper made of the answer, or why there is none; cancelling it ends the call. */
    CompletableFuture<T> answer() {
        return answer;
    }

    /** Sends the call with the head {@code head}, on this call's context; {@code timeout} spans the whole call. */
    CompleteCall<T> start(HttpClientAgent http, RequestOptions head, Duration timeout) {
        OnContext.run(context, () -> {
            if (answer.isDone()) {
                return; // cancelled before it started
            }
            timer = LoopTimeouts.schedule(vertx, timeout.toNanos(), () -> {
                if (answer.completeExceptionally(new CallTimeoutException(timeout))) {
                    reset();
                }
            });
            http.request(head).onComplete(this::send);
        });
        return this;
    }

    private void send(AsyncResult<HttpClientRequest> connected) {
        if (connected.failed()) {
            fail(connected.cause());
            return;
        }
        request = connected.result();
        if (resetWanted || answer.isDone()) {
            request.reset(); // timed out or cancelled while waiting for a connection
            return;
        }
        request.send(call.bytes()).onComplete(this::receive);
    }

    private void receive(AsyncResult<HttpClientResponse> sent) {
        if (sent.failed()) {
            fail(sent.cause());
            return;
        }
        if (answer.isDone()) {
            return; // the request was reset when the call ended
        }
        response = sent.result();
        try {
            body = BoundedBody.of(response, maxBodyBytes, call.provider());
        } catch (UpstreamBodyTooLargeException tooLarge) {
            failAndReset(tooLarge);
            return;
        }
        response.handler(this::chunk);
        response.exceptionHandler(this::fail);
        response.endHandler(this::end);
    }

    private void chunk(Buffer chunk) {
        if (answer.isDone()) {
            return;
        }
        try {
            body.add(chunk);
        } catch (UpstreamBodyTooLargeException tooLarge) {
            failAndReset(tooLarge); // stop reading: the rest of the body is never wanted
        }
    }

    private void end(Void ignored) {
        if (answer.isDone()) {
            return;
        }
        timer.cancel();
        T mapped;
        try {
            mapped = mapper.apply(answer(call, response, body.body()));
        } catch (RuntimeException refused) {
            answer.completeExceptionally(refused);
            return;
        }
        answer.complete(mapped);
    }

    private void fail(Throwable error) {
        if (timer != null) {
            timer.cancel();
        }
        answer.completeExceptionally(UpstreamFailures.transport(error, call.provider()));
    }

    private void failAndReset(UpstreamBodyTooLargeException tooLarge) {
        fail(tooLarge);
        reset();
    }

    /** The caller cancelled the answer: the request is reset, which closes its connection. */
    private void abandon() {
        if (timer != null) {
            timer.cancel();
        }
        reset();
    }

    // The call may end before the request object exists: then it is reset as soon as it does.
    private void reset() {
        resetWanted = true;
        if (request != null) {
            request.reset();
        }
    }

    private static UpstreamResponse answer(UpstreamRequest request, HttpClientResponse response, Buffer body) {
        if (response.statusCode() / 100 != 2) {
            throw UpstreamFailures.status(request.provider(), response, body.toString());
        }
        Dialect dialect = request.provider().dialect();
        Usage usage = dialect.usageIfWellFormed(body);
        if (usage == null) {
            JsonObject answer;
            try {
                answer = dialect.checkAnswer(body);
            } catch (MalformedAnswerException malformed) {
                throw new MalformedAnswerException("provider " + request.provider().name() + " answered "
                        + response.statusCode() + " with a malformed " + dialect.name() + " answer: " + malformed.getMessage());
            }
            usage = dialect.usageOf(answer);
        }
        return new UpstreamResponse(response.statusCode(), response.headers(), body, usage);
    }
}
