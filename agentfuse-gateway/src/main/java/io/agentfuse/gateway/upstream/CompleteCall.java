package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.internal.CancellingFuture;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One complete (not streamed) provider call on a connection of {@link ProviderConnections}: its
 * timeout, the close that ends its connection when it times out, is cancelled, its connection
 * breaks or its answer grows too large, and the check that a 2xx answer is a well-formed answer
 * of the provider's dialect. The call's {@link #answer()} completes once, with what the caller's
 * mapper makes of the answer or a failure in the terms of {@code agentfuse-core}
 * ({@link UpstreamFailures}); cancelling it closes the connection, so the provider sees the caller
 * leave. A connection goes back to its pool only after an answer read whole that did not ask
 * to close it.
 *
 * <p>Each step's callback leads straight to the next (a connection, the answer's head, its body
 * chunks, its end): one future for the whole call, the caller's.
 *
 * <p>Confined to the event loop of the context it is made on: started there, and every callback
 * and timer runs there.
 */
final class CompleteCall<T> implements ProviderConnections.Lease, ProviderConnections.Receiver {

    private final Scheduler timers;
    private final Context context;
    private final EventLoop loop;
    private final UpstreamRequest call;
    private final long maxBodyBytes;
    private final Function<UpstreamResponse, T> mapper;
    private final CancellingFuture<T> answer;
    private ProviderRequests.CallHead callHead;
    private ProviderConnections.Pool pool;
    private Scheduler.Cancellable timer;
    private Channel connection;
    private HttpResponse head;
    private BoundedBody body;

    /**
     * @param mapper what the caller makes of the answer, on the call's context; what it throws
     *               fails the call
     */
    CompleteCall(Scheduler timers, Context context, UpstreamRequest call, long maxBodyBytes,
                 Function<UpstreamResponse, T> mapper) {
        this.timers = timers;
        this.context = context;
        // Its loop even for a worker context: the connections and their pools live on loops.
        this.loop = VertxHooks.eventLoop(context);
        this.call = call;
        this.maxBodyBytes = maxBodyBytes;
        this.mapper = mapper;
        this.answer = new CancellingFuture<>(() -> onLoop(this::letGo));
    }

    /** What the mapper made of the answer, or why there is none; cancelling it ends the call. */
    CompletableFuture<T> answer() {
        return answer;
    }

    /**
     * Sends the call on a connection of the pool {@code pools} gives for its loop, with the head
     * {@code head}; {@code timeout} spans the whole call, the wait for a connection included.
     */
    CompleteCall<T> start(ProviderConnections pools, ProviderRequests.CallHead head, Duration timeout) {
        onLoop(() -> {
            if (answer.isDone()) {
                return; // cancelled before it started
            }
            timer = timers.schedule(() -> onLoop(() -> {
                if (answer.completeExceptionally(new CallTimeoutException(timeout))) {
                    letGo();
                }
            }), timeout.toNanos());
            callHead = head;
            pool = pools.pool(loop, head.address());
            pool.lease(this);
        });
        return this;
    }

    @Override
    public void granted(Channel granted) {
        if (answer.isDone()) {
            pool.giveBack(granted); // ended while it waited: the connection is as good as it was
            return;
        }
        connection = granted;
        ProviderConnections.receiver(granted, this);
        callHead.write(granted, call.bytes());
    }

    @Override
    public void failed(Throwable why) {
        fail(why);
    }

    @Override
    public boolean abandoned() {
        return answer.isDone();
    }

    @Override
    public void received(HttpObject part) {
        if (answer.isDone()) {
            return;
        }
        if (part.decoderResult().isFailure()) {
            failAndClose(UpstreamFailures.notHttp(call.provider(), part.decoderResult().cause()));
            return;
        }
        if (part instanceof HttpResponse response) {
            head = response;
            try {
                body = BoundedBody.of(response.headers().get(HttpHeaderNames.CONTENT_LENGTH), maxBodyBytes, call.provider());
            } catch (UpstreamBodyTooLargeException tooLarge) {
                failAndClose(tooLarge);
                return;
            }
        }
        if (part instanceof HttpContent content) {
            ByteBuf bytes = content.content();
            if (bytes.isReadable()) {
                try {
                    body.add(BoundedBody.copyOf(bytes));
                } catch (UpstreamBodyTooLargeException tooLarge) {
                    failAndClose(tooLarge); // stop reading: the rest of the body is never wanted
                    return;
                }
            }
            if (content instanceof LastHttpContent) {
                end();
            }
        }
    }

    @Override
    public void broken(Throwable cause) {
        Channel broken = connection;
        connection = null;
        if (broken != null) {
            broken.close();
        }
        fail(UpstreamFailures.broken(call.provider(), cause));
    }

    private void end() {
        timer.cancel();
        Channel done = connection;
        connection = null;
        pool.answered(done, head);
        if (context.isEventLoopContext()) {
            // On the caller's context, as Vert.x runs its own handlers: the callbacks of the answer
            // that must run there find themselves on it, instead of queueing a task to get there.
            VertxHooks.dispatch(context, this::complete);
        } else {
            complete();
        }
    }

    /** The answer read whole: what the mapper makes of it completes the call. */
    private void complete() {
        T mapped;
        try {
            mapped = mapper.apply(answer(call, head.status().code(), VertxHooks.headers(head.headers()), body.body()));
        } catch (RuntimeException refused) {
            answer.completeExceptionally(refused);
            return;
        }
        answer.complete(mapped);
    }

    private void onLoop(Runnable action) {
        if (loop.inEventLoop()) {
            action.run();
        } else {
            loop.execute(action);
        }
    }

    private void fail(Throwable error) {
        if (timer != null) {
            timer.cancel();
        }
        answer.completeExceptionally(error);
    }

    private void failAndClose(Throwable error) {
        fail(error);
        letGo();
    }

    /** The call ended before its answer did: its connection, if it has one, is closed. */
    private void letGo() {
        if (timer != null) {
            timer.cancel();
        }
        Channel abandoned = connection;
        connection = null;
        if (abandoned != null) {
            ProviderConnections.abandon(abandoned);
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
                        + status + " with a malformed " + dialect.name() + " answer: " + malformed.getMessage());
            }
            usage = dialect.usageOf(answer);
        }
        return new UpstreamResponse(status, headers, body, usage);
    }
}
