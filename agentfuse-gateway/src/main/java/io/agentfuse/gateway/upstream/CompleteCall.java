package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.internal.LoopTimeouts;
import io.agentfuse.gateway.internal.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * One complete (not streamed) provider call: its timeout, the reset that frees its connection
 * when it times out, is cancelled or its answer grows too large, and the check that a 2xx answer
 * is a well-formed answer of the provider's dialect. The call's future completes once, with the
 * answer or a failure in the terms of {@code agentfuse-core} ({@link UpstreamFailures}).
 *
 * <p>Confined to one Vert.x context: started there, and every callback and timer runs there.
 */
final class CompleteCall {

    private final Vertx vertx;
    private final Context context;
    private final Promise<UpstreamResponse> result = Promise.promise();
    private HttpClientRequest request;
    private boolean resetWanted;

    CompleteCall(Vertx vertx, Context context) {
        this.vertx = vertx;
        this.context = context;
    }

    /** The answer, or why there is none. */
    Future<UpstreamResponse> result() {
        return result.future();
    }

    /** Sends {@code call} with the head {@code head}, on this call's context; {@code timeout} spans the whole call. */
    CompleteCall start(HttpClientAgent http, RequestOptions head, UpstreamRequest call, Duration timeout,
                       long maxBodyBytes) {
        OnContext.run(context, () -> {
            Scheduler.Cancellable timer = LoopTimeouts.schedule(vertx, timeout.toNanos(), () -> {
                if (result.tryFail(new CallTimeoutException(timeout))) {
                    reset();
                }
            });
            http.request(head)
                    .compose(httpRequest -> {
                        attach(httpRequest);
                        return httpRequest.send(call.bytes());
                    })
                    .compose(response -> BoundedBody.read(response, maxBodyBytes, call.provider())
                            .map(body -> answer(call, response, body)))
                    .onComplete(done -> {
                        timer.cancel();
                        if (done.succeeded()) {
                            result.tryComplete(done.result());
                        } else {
                            if (done.cause() instanceof UpstreamBodyTooLargeException) {
                                reset(); // stop reading: the rest of the body is never wanted
                            }
                            result.tryFail(UpstreamFailures.transport(done.cause(), call.provider()));
                        }
                    });
        });
        return this;
    }

    /** Ends the call as cancelled by its caller: the request is reset, which closes its connection. */
    void cancel(Throwable why) {
        OnContext.run(context, () -> {
            if (result.tryFail(why)) {
                reset();
            }
        });
    }

    // The timeout may fire before the request object exists: then it is reset as soon as it does.
    private void attach(HttpClientRequest httpRequest) {
        this.request = httpRequest;
        if (resetWanted || result.future().isComplete()) {
            httpRequest.reset();
        }
    }

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
