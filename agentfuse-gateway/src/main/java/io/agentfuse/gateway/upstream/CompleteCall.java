package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.internal.CancellingFuture;
import io.agentfuse.gateway.internal.OnContext;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One complete (not streamed) provider call on the gateway's HTTP client ({@link UpstreamHttp}):
 * its timeout over the whole call (the wait for a connection included), the bound on its answer,
 * the reset that ends its request when it times out, is cancelled or its answer grows too large,
 * and the check that a 2xx answer is a well-formed answer of the provider's dialect. The call's
 * {@link #answer()} completes once, with what the caller's mapper makes of the answer or a failure
 * in the terms of {@code agentfuse-core} ({@link UpstreamFailures}); cancelling it resets the
 * request, which closes its HTTP/1.1 connection, so the provider sees the caller leave. A call that
 * ends while it waits for a connection is never sent.
 *
 * <p>Confined to the context it is made on: started there, and every callback and timer runs there.
 */
final class CompleteCall<T> {

    private final Scheduler timers;
    private final Context context;
    private final UpstreamRequest call;
    private final long maxBodyBytes;
    private final Function<UpstreamResponse, T> mapper;
    private final CancellingFuture<T> answer;
    /** Told when the call is cancelled or times out after its request went out. */
    private final Runnable cutOffAfterSent;
    private Scheduler.Cancellable timer;
    /** The client stack it was sent on, which tells its egress proxy's refusal from an answer. */
    private UpstreamHttp http;
    private HttpClientRequest request;
    private HttpClientResponse response;
    private BoundedBody body;
    /** The bytes sent: encoded once, so that a signature over them holds for what goes out. */
    private Buffer sent;

    /**
     * @param mapper what the caller makes of the answer, on the call's context; what it throws
     *               fails the call
     */
    CompleteCall(Scheduler timers, Context context, UpstreamRequest call, long maxBodyBytes,
                 Function<UpstreamResponse, T> mapper, Runnable cutOffAfterSent) {
        this.timers = timers;
        this.context = context;
        this.call = call;
        this.maxBodyBytes = maxBodyBytes;
        this.mapper = mapper;
        this.cutOffAfterSent = cutOffAfterSent;
        this.answer = new CancellingFuture<>(() -> OnContext.run(context, this::cutOff));
    }

    /** What the mapper made of the answer, or why there is none; cancelling it ends the call. */
    CompletableFuture<T> answer() {
        return answer;
    }

    /**
     * Sends the call, as {@code options} say, on {@code http}, authenticated by {@code signer} first
     * when it is not {@code null}; {@code timeout} spans the whole call, the authentication included
     * ({@code null}: none of its own, the caller cancels the call at its limit).
     */
    CompleteCall<T> start(UpstreamHttp http, RequestOptions options, Duration timeout, ProviderRequests.Signer signer) {
        OnContext.run(context, () -> {
            if (answer.isDone()) {
                return; // cancelled before it started
            }
            if (timeout != null) {
                timer = timers.schedule(() -> OnContext.run(context, () -> {
                    if (answer.completeExceptionally(new CallTimeoutException(timeout))) {
                        cutOff();
                    }
                }), timeout.toNanos());
            }
            sent = call.bytes();
            this.http = http;
            ProviderRequests.lease(http, options, sent, signer, context, call.provider(), answer::isDone, this::fail,
                    this::leased);
        });
        return this;
    }

    private void leased(AsyncResult<HttpClientRequest> leased) {
        if (leased.failed()) {
            fail(UpstreamFailures.of(call.provider(), leased.cause()));
            return;
        }
        request = leased.result();
        if (answer.isDone()) {
            request.reset(); // ended while it waited for the connection: never sent
            return;
        }
        ProviderRequests.send(request, sent).onComplete(this::answered);
    }

    private void answered(AsyncResult<HttpClientResponse> answered) {
        if (answered.failed()) {
            failAndLetGo(UpstreamFailures.of(call.provider(), answered.cause()));
            return;
        }
        response = answered.result();
        if (answer.isDone()) {
            letGo();
            return;
        }
        try {
            UpstreamFailures.checkHead(call.provider(), http, response);
            body = BoundedBody.of(response.getHeader(HttpHeaders.CONTENT_LENGTH), maxBodyBytes, call.provider());
        } catch (UpstreamBodyTooLargeException | MalformedAnswerException | UpstreamAuthException unreadable) {
            failAndLetGo(unreadable);
            return;
        }
        response.handler(this::received)
                .exceptionHandler(cause -> failAndLetGo(UpstreamFailures.of(call.provider(), cause)))
                .endHandler(ignored -> end());
    }

    private void received(Buffer chunk) {
        if (answer.isDone()) {
            return;
        }
        try {
            body.add(chunk);
        } catch (UpstreamBodyTooLargeException tooLarge) {
            failAndLetGo(tooLarge); // stop reading: the rest of the body is never wanted
        } catch (OutOfMemoryError full) {
            failAndLetGo(full); // the call fails now, not at a timeout that may never come
        }
    }

    /** The answer read whole: what the mapper makes of it completes the call. */
    private void end() {
        if (answer.isDone()) {
            return;
        }
        if (timer != null) {
            timer.cancel();
        }
        T mapped;
        try {
            mapped = mapper.apply(answer(call, response.statusCode(), response.headers(), body.body()));
        } catch (RuntimeException | OutOfMemoryError refused) {
            // The timer is cancelled: a call whose answer cannot be read (the heap full) fails now
            // (the guard takes the gateway's own fault for no provider's), or its caller waits forever.
            answer.completeExceptionally(refused);
            return;
        }
        answer.complete(mapped);
    }

    private void fail(Throwable error) {
        if (timer != null) {
            timer.cancel();
        }
        answer.completeExceptionally(error);
    }

    private void failAndLetGo(Throwable error) {
        if (answer.completeExceptionally(error)) {
            letGo();
        }
    }

    /**
     * Cancelled or timed out: let go, and tell of it when the request went out (it is kept and sent
     * in one step once leased; one leased after the answer ended is reset unsent).
     */
    private void cutOff() {
        boolean sent = request != null;
        letGo();
        if (sent) {
            cutOffAfterSent.run();
        }
    }

    /** The call ended before its answer did: its request, if it was sent, is reset. */
    private void letGo() {
        if (timer != null) {
            timer.cancel();
        }
        if (request != null) {
            UpstreamHttp.abandon(request);
        }
    }

    private static UpstreamResponse answer(UpstreamRequest request, int status, MultiMap headers, Buffer body) {
        if (status / 100 != 2) {
            throw UpstreamFailures.status(request.provider(), status, headers, body.toString());
        }
        Dialect dialect = request.provider().dialect();
        Usage usage = dialect.usageIfWellFormed(body);
        if (usage == null) {
            JsonObject answer;
            try {
                answer = dialect.checkAnswer(body);
            } catch (MalformedAnswerException malformed) {
                throw new MalformedAnswerException("provider " + request.provider().name() + " answered "
                        + status + " with a malformed " + dialect.name() + " answer: "
                        + Redaction.of(request.provider(), malformed.getMessage()), Redaction.of(request.provider(), headers));
            }
            usage = dialect.usageOf(answer);
        }
        return new UpstreamResponse(status, headers, body, usage);
    }
}
