package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.internal.CancellingFuture;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.internal.VertxScheduler;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.RequestOptions;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Calls model providers over pooled keep-alive connections, complete or streamed, and
 * fails in the terms of {@code agentfuse-core} so that breakers, retries and fallbacks can act:
 * <ul>
 *   <li>non-2xx other than 401/403 → {@link io.agentfuse.core.HttpStatusException} with the body and the
 *       {@code Retry-After} / {@code retry-after-ms} headers;</li>
 *   <li>no answer within the timeout, no first event within {@link StreamTimeouts#firstEvent()}
 *       → {@link io.agentfuse.core.timeout.CallTimeoutException} (the request is reset, which closes its
 *       HTTP/1.1 connection: a late answer cannot reach the next call);</li>
 *   <li>refused connections → {@link java.net.ConnectException}; closed or reset connections →
 *       {@link UpstreamConnectionException};</li>
 *   <li>401 or 403, a refusal of the gateway's own key → {@link UpstreamAuthException} (an
 *       {@code ERROR}: not retried, fallen back from);</li>
 *   <li>a 2xx whose body is not a well-formed answer of the provider's dialect, or an answer that is
 *       not valid HTTP (its chunk framing breaks, say; its connection is closed, never reused) →
 *       {@link io.agentfuse.gateway.dialect.MalformedAnswerException} (an {@code ERROR}), never a response;</li>
 *   <li>an answer over {@link UpstreamClientOptions#maxBodyBytes()} (by its {@code Content-Length}
 *       or as it arrives, error bodies too) or a stream event over
 *       {@link UpstreamClientOptions#maxEventBytes()} → {@link UpstreamBodyTooLargeException}: reading
 *       stops and the request is reset.</li>
 * </ul>
 * Headers come from the provider's {@link io.agentfuse.gateway.dialect.Dialect}, the request and the
 * provider's configuration, in that order, then its authentication, which nothing replaces
 * ({@link ProviderRequests}): fixed headers, or, for a provider that authenticates each call over its
 * final form (Bedrock's SigV4, Vertex AI's access tokens), headers computed on Vert.x's worker threads
 * within the call's timeout; a refusal by the provider's identity service is an
 * {@link UpstreamAuthException}. Non-2xx answers are classified by the provider's dialect
 * ({@link io.agentfuse.gateway.dialect.Dialect#errorOutcome}, {@link UpstreamFailures}). Keys are never logged. A complete call's state is a
 * {@link CompleteCall}, a streamed one's a {@link StreamingCall}.
 *
 * <p>Calls go out on the gateway's one client stack, {@link UpstreamHttp} (Vert.x's HTTP client: a
 * client per event loop, so that a call runs on its caller's loop from start to end; pools of up to
 * {@link UpstreamClientOptions#maxConnectionsPerHost()} connections per provider address; TLS, HTTP/2
 * where the provider offers it, the egress proxy). A stream's reading stops while its caller cannot
 * keep up (back-pressure).
 *
 * <p>Thread-safe; share one per Vert.x instance. Completion handlers run on a Vert.x event loop.
 *
 * <pre>{@code
 * UpstreamClient client = new UpstreamClient(vertx, UpstreamClientOptions.defaults());
 * client.stream(UpstreamRequest.of(provider, body), new StreamTimeouts(Duration.ofSeconds(20), Duration.ofSeconds(30)))
 *       .onSuccess(stream -> stream.handler(event -> ...).endHandler(v -> ...).exceptionHandler(e -> ...));
 * }</pre>
 */
public final class UpstreamClient {

    /** Every event begins the answer: a stream is ready at its first event. */
    /** No one to tell of a call cut off after it was sent. */
    private static final Runnable NO_ONE = () -> {
    };

    private final Vertx vertx;
    private final UpstreamClientOptions options;
    private final ProviderRequests requests = new ProviderRequests();
    private final Scheduler timers;
    private final UpstreamHttp http;
    /**
     * What authentication works with: Vert.x's workers for what may block or grows with the body (a
     * token fetch, a SigV4 signature), and the calls' own client stack and egress proxy for its requests (a token fetch).
     */
    private final UpstreamAuth.Means authMeans;

    public UpstreamClient(Vertx vertx, UpstreamClientOptions options) {
        this(vertx, options, UpstreamHttp.IDLE);
    }

    /** @param idle how long a connection may sit unused in its pool (tests shorten it) */
    UpstreamClient(Vertx vertx, UpstreamClientOptions options, Duration idle) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.options = Objects.requireNonNull(options, "options");
        this.timers = new VertxScheduler(vertx);
        this.http = new UpstreamHttp(vertx, new UpstreamHttp.Settings(options.connectTimeout(),
                options.maxConnectionsPerHost(), idle, options.egress()));
        Executor blocking = task -> vertx.executeBlocking(() -> {
            task.run();
            return null;
        }, false);
        this.authMeans = new UpstreamAuth.Means(blocking, new AuthHttp(http));
    }

    /**
     * The login of the egress proxy its calls go through, as sent ({@link UpstreamHttp#proxySecrets}): the
     * endpoints of its calls carry it ({@link ProviderEndpoint#proxySecrets}) for {@link Redaction}.
     */
    public List<String> proxySecrets() {
        return http.proxySecrets();
    }

    /**
     * Sends {@code request} and reads the complete answer.
     *
     * @param timeout limit for the whole call, from sending to the last byte
     */
    public Future<UpstreamResponse> send(UpstreamRequest request, Duration timeout) {
        return Future.fromCompletionStage(sendCancellable(request, timeout, Function.identity()));
    }

    /**
     * Like {@link #send}, as a future whose cancellation aborts the call: its connection is
     * closed, so the provider sees the caller leave. This is the form a
     * {@link io.agentfuse.core.Guard} wants, since cancelling a guarded call cancels its attempt.
     * The future completes with what {@code mapper} makes of the answer (on the call's event loop):
     * one future for the call and its caller's view of it, not a second one for the mapping. A
     * mapper that throws fails the future with what it threw.
     *
     * @param timeout limit for the whole call, or {@code null} for none of its own: a guard's timeout,
     *                which cancels the call at its limit, saves the call a timer of its own
     */
    public <T> CompletableFuture<T> sendCancellable(UpstreamRequest request, Duration timeout,
                                                    Function<UpstreamResponse, T> mapper) {
        return sendCancellable(request, timeout, mapper, NO_ONE);
    }

    /**
     * Like {@link #sendCancellable(UpstreamRequest, Duration, Function)}, running {@code cutOffAfterSent}
     * (on the call's event loop) when the call is cancelled or times out after its request went
     * out, as its provider then bills a prompt nobody reads; not when it was cut before (waiting for
     * a connection or its signature).
     */
    public <T> CompletableFuture<T> sendCancellable(UpstreamRequest request, Duration timeout,
                                                    Function<UpstreamResponse, T> mapper, Runnable cutOffAfterSent) {
        Objects.requireNonNull(mapper, "mapper");
        Context context = callContext();
        CompleteCall<T> call = new CompleteCall<>(timers, context, request, options.maxBodyBytes(), mapper,
                cutOffAfterSent);
        RequestOptions head;
        try {
            head = requests.complete(request);
        } catch (IllegalArgumentException refused) {
            call.answer().completeExceptionally(refused); // a header Vert.x refuses: an ERROR, nothing sent
            return call.answer();
        }
        return call.start(http, head, timeout, ProviderRequests.signer(request.provider(), authMeans)).answer();
    }

    /**
     * Sends {@code request} (which must ask the provider to stream) and completes once the
     * first SSE event has arrived — so that a caller may still retry or fall back until then —
     * with a handle that delivers that event and the rest.
     */
    public Future<UpstreamStream> stream(UpstreamRequest request, StreamTimeouts timeouts) {
        Promise<UpstreamStream> ready = Promise.promise();
        startStream(request, timeouts, ready, StreamOpening.EVERY_EVENT, NO_ONE);
        return ready.future();
    }

    /**
     * Like {@link #stream}, as a future whose cancellation aborts the call: before the first
     * event the request is reset; a stream that becomes ready after the cancellation is
     * cancelled at once.
     */
    public CompletableFuture<UpstreamStream> streamCancellable(UpstreamRequest request, StreamTimeouts timeouts) {
        return streamCancellable(request, timeouts, StreamOpening.EVERY_EVENT, NO_ONE);
    }

    /**
     * Like {@link #streamCancellable(UpstreamRequest, StreamTimeouts)}, completing only once an
     * event that begins the answer has arrived, as {@code opening} tells: the events before it (a
     * preamble such as Anthropic's {@code message_start}) are kept for the handle, and the
     * first-event limit covers the wait for the answer itself, or for the model's work on it
     * ({@link StreamOpening.Stage#WORKING}). {@code opening} sees each event before the answer begins,
     * in order, on the call's event loop. {@code cutOffAfterSent} runs there when the call is cut after
     * its request went out and before the stream was taken (cancelled, or past its first-event
     * limit): its provider bills a prompt nobody reads. A stream taken is accounted by its taker.
     */
    public CompletableFuture<UpstreamStream> streamCancellable(UpstreamRequest request, StreamTimeouts timeouts,
                                                              StreamOpening opening,
                                                              Runnable cutOffAfterSent) {
        Promise<UpstreamStream> ready = Promise.promise();
        StreamStart start = startStream(request, timeouts, ready, opening, cutOffAfterSent);
        CompletableFuture<UpstreamStream> answer = new CancellingFuture<>(start::cancel);
        ready.future().onComplete(done -> {
            if (done.failed()) {
                answer.completeExceptionally(done.cause());
            } else {
                done.result().handTo(answer::complete);
            }
        });
        return answer;
    }

    private StreamStart startStream(UpstreamRequest request, StreamTimeouts timeouts, Promise<UpstreamStream> ready,
                                    StreamOpening opening, Runnable cutOffAfterSent) {
        Context context = streamContext();
        StreamStart start = new StreamStart(context);
        OnContext.run(context, () -> {
            if (start.cancelled) {
                ready.tryFail(new CancellationException("cancelled by the caller"));
                return;
            }
            StreamingCall call = new StreamingCall(timers, context, request, timeouts, options, opening,
                    cutOffAfterSent);
            start.call = call;
            call.ready().onComplete(ready);
            RequestOptions head;
            try {
                head = requests.stream(request);
            } catch (IllegalArgumentException refused) {
                ready.tryFail(refused); // a header Vert.x refuses: an ERROR, nothing sent
                return;
            }
            call.start(http, head, ProviderRequests.signer(request.provider(), authMeans));
        });
        return start;
    }

    /** Closes the pooled connections. */
    public Future<Void> close() {
        return http.close();
    }

    /**
     * The context a stream runs on: the caller's event-loop context when it is one of ours, else
     * a fresh one (a stream's handlers run on its connection's event loop, which a worker
     * context does not run on).
     */
    private Context streamContext() {
        Context current = callContext();
        return current.isEventLoopContext() ? current : VertxHooks.newEventLoopContext(vertx);
    }

    /**
     * The context a call runs on: the caller's when it is one of ours, else a fresh one. The HTTP
     * request, its callbacks and the timers then share that context (the call is started through
     * {@link OnContext}, which hops onto it from any other thread, a context worker's included): the
     * whole future chain is wired before any response event can be handled, and call state needs
     * no locks.
     */
    private Context callContext() {
        Context current = Vertx.currentContext();
        return current != null && current.owner() == vertx ? current : vertx.getOrCreateContext();
    }

    /** A streamed call that may be cancelled before it has even started; confined to the call's context. */
    private static final class StreamStart {
        private final Context context;
        private StreamingCall call;
        private boolean cancelled;

        StreamStart(Context context) {
            this.context = context;
        }

        void cancel() {
            OnContext.run(context, () -> {
                cancelled = true;
                if (call != null) {
                    call.cancel();
                }
            });
        }
    }
}
