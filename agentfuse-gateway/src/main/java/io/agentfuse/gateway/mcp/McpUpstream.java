package io.agentfuse.gateway.mcp;

import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.gateway.dialect.EgressProxyException;
import io.agentfuse.gateway.upstream.Redaction;
import io.agentfuse.gateway.upstream.UpstreamHttp;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * The proxy's HTTP client to MCP servers, on the gateway's one client stack for upstreams
 * ({@link UpstreamHttp}: pooled keep-alive connections, TLS, the egress proxy): a POST read to the
 * end into an {@link McpAnswer} (bounded by {@code maxUpstreamBody}), or a request whose response
 * is handed over at its status line for streaming. Failures are in the terms the outcome
 * classifier knows: no answer in time is a {@link CallTimeoutException}; a refused, reset or
 * closed connection, or a redirect (never followed), an {@link McpTransportException}. Cancelling
 * a call abandons its request ({@link UpstreamHttp#abandon}), which closes the connection at once,
 * unsent bytes and all, so the server sees the caller leave. {@code GET} streams go out on pools of
 * their own, and {@link #slots} bounds what is open to each server so that nothing waits for a
 * pooled connection. An error answer read whole, and a failure's message, are cleared of the egress
 * proxy's login ({@link Redaction}): a proxy that refuses a call may echo the request's
 * {@code Proxy-Authorization} in its answer, which the caller would read.
 *
 * <p>Thread-safe. Each call runs on the Vert.x context it was started from.
 */
final class McpUpstream {

    private final Vertx vertx;
    private final UpstreamHttp http;
    private final UpstreamHttp streams;
    private final ConnectionSlots slots;
    private final long maxBody;
    private final List<String> proxySecrets;

    McpUpstream(Vertx vertx, McpProxyOptions options) {
        this(vertx, options, new UpstreamHttp(vertx,
                UpstreamHttp.Settings.direct(options.connectTimeout(), options.maxConnectionsPerServer())));
    }

    McpUpstream(Vertx vertx, McpProxyOptions options, UpstreamHttp http) {
        this.vertx = vertx;
        this.maxBody = options.maxUpstreamBody();
        this.http = http;
        this.streams = http.withOwnPools();
        this.proxySecrets = http.proxySecrets();
        this.slots = new ConnectionSlots(options.maxConnectionsPerServer());
    }

    /** The bound on requests open to each server, taken before a request goes out. */
    ConnectionSlots slots() {
        return slots;
    }

    /** POSTs {@code body}, a message that expects no response (a notification), and reads the whole answer. */
    CompletableFuture<McpAnswer> exchange(URI url, MultiMap headers, Buffer body, Duration timeout) {
        return exchange(url, headers, body, null, timeout);
    }

    /**
     * POSTs {@code body}, the request {@code id}, and reads its answer within {@code timeout}: to
     * the end, or, for an SSE answer, until the response to {@code id} has come (the stream is then
     * let go: a server may keep it open). The future fails with {@link CallTimeoutException},
     * {@link McpTransportException}, or {@link McpAnswerTooLargeException}; cancelling it aborts the call.
     */
    CompletableFuture<McpAnswer> exchange(URI url, MultiMap headers, Buffer body, Object id, Duration timeout) {
        CompletableFuture<McpAnswer> answer = new CompletableFuture<>();
        Context context = vertx.getOrCreateContext();
        context.runOnContext(start -> {
            Holder holder = new Holder();
            long timer = vertx.setTimer(Math.max(1, timeout.toMillis()), timerId -> {
                if (answer.completeExceptionally(new CallTimeoutException(timeout))) {
                    holder.abandon();
                }
            });
            answer.whenComplete((value, error) -> {
                vertx.cancelTimer(timer);
                if (answer.isCancelled()) {
                    context.runOnContext(v -> holder.abandon());
                }
            });
            http.request(options(url, HttpMethod.POST, headers))
                    .compose(request -> {
                        holder.request = request;
                        if (answer.isDone()) {
                            request.reset();
                        }
                        return request.send(body);
                    })
                    .compose(response -> notRedirected(response, url).compose(read -> readAll(read, id)))
                    .onComplete(done -> {
                        if (done.succeeded()) {
                            answer.complete(done.result());
                        } else {
                            answer.completeExceptionally(transport(done.cause(), url, proxySecrets));
                        }
                    });
        });
        return answer;
    }

    /**
     * Sends a request and completes at the response's status line, with the response paused so
     * the caller attaches its handlers first; the call fails after {@code timeout} without one.
     */
    Future<Streamed> open(URI url, HttpMethod method, MultiMap headers, Buffer body, Duration timeout) {
        Promise<Streamed> result = Promise.promise();
        Holder holder = new Holder();
        long timer = vertx.setTimer(Math.max(1, timeout.toMillis()), id -> {
            if (result.tryFail(new CallTimeoutException(timeout))) {
                holder.abandon();
            }
        });
        (method == HttpMethod.GET ? streams : http).request(options(url, method, headers))
                .compose(request -> {
                    holder.request = request;
                    return body == null ? request.send() : request.send(body);
                })
                .compose(response -> notRedirected(response, url))
                .onComplete(done -> {
                    vertx.cancelTimer(timer);
                    if (done.succeeded()) {
                        // Until the caller attaches its own: a reset before then (the caller left, the head
                        // came too late) is expected, not an error for the log.
                        done.result().pause().exceptionHandler(cut -> { });
                        if (!result.tryComplete(new Streamed(done.result(), holder.request))) {
                            holder.abandon();
                        }
                    } else {
                        result.tryFail(transport(done.cause(), url, proxySecrets));
                    }
                });
        return result.future();
    }

    /**
     * Reads the rest of {@code streamed}, an answer from {@code url} handed over at its head, to the
     * end within {@code timeout}, bounded as {@link #exchange} bounds an answer; it fails as
     * {@link #exchange} does, and cancelling it abandons the request. Called on the answer's context.
     */
    CompletableFuture<McpAnswer> readWhole(Streamed streamed, URI url, Duration timeout) {
        CompletableFuture<McpAnswer> answer = new CompletableFuture<>();
        Context context = vertx.getOrCreateContext();
        long timer = vertx.setTimer(Math.max(1, timeout.toMillis()), timerId -> {
            if (answer.completeExceptionally(new CallTimeoutException(timeout))) {
                UpstreamHttp.abandon(streamed.request());
            }
        });
        answer.whenComplete((value, error) -> {
            vertx.cancelTimer(timer);
            if (answer.isCancelled()) {
                context.runOnContext(v -> UpstreamHttp.abandon(streamed.request()));
            }
        });
        readAll(streamed.response(), null).onComplete(done -> {
            if (done.succeeded()) {
                answer.complete(done.result());
            } else {
                answer.completeExceptionally(transport(done.cause(), url, proxySecrets));
            }
        });
        streamed.response().resume();
        return answer;
    }

    Future<Void> close() {
        return Future.join(http.close(), streams.close()).mapEmpty();
    }

    /**
     * {@code response}, unless it redirects or is the egress proxy's refusal of the gateway's login. A
     * redirect is not followed (nor relayed, which would send the caller past the proxy to the address it
     * names): the configured {@code url} does not serve MCP any more. The proxy's 407 is the gateway's
     * configuration, not the server's answer ({@link UpstreamHttp#refusalIn}). Either fails the call as the
     * server's transport.
     */
    private Future<HttpClientResponse> notRedirected(HttpClientResponse response, URI url) {
        EgressProxyException refused = http.refusalIn(response);
        if (response.statusCode() / 100 != 3 && refused == null) {
            return Future.succeededFuture(response);
        }
        UpstreamHttp.abandon(response.request());
        return Future.failedFuture(new McpTransportException("MCP server " + url + (refused != null ? ": " + refused.getMessage()
                : " answered HTTP " + response.statusCode() + ", " + UpstreamHttp.redirectNote(response.getHeader("location"), "its url")), null));
    }

    private Future<McpAnswer> readAll(HttpClientResponse response, Object id) {
        Promise<McpAnswer> read = Promise.promise();
        Buffer body = Buffer.buffer();
        SseResponseWatch watch = id != null && McpAnswer.isEventStream(response.headers()) ? new SseResponseWatch(id) : null;
        response.handler(chunk -> {
            if (read.future().isComplete()) {
                return;
            }
            if (body.length() + chunk.length() > maxBody) {
                read.tryFail(new McpAnswerTooLargeException(maxBody));
                UpstreamHttp.abandon(response.request());
                return;
            }
            body.appendBuffer(chunk);
            try {
                if (watch != null && watch.responded(chunk)) {
                    // The call is done: what the server still sends on this stream is not its answer.
                    read.tryComplete(new McpAnswer(response.statusCode(), response.headers(), body));
                    UpstreamHttp.abandon(response.request());
                }
            } catch (McpAnswerTooLargeException tooLarge) {
                read.tryFail(tooLarge);
                UpstreamHttp.abandon(response.request());
            }
        });
        response.exceptionHandler(read::tryFail);
        response.endHandler(v -> read.tryComplete(answer(response, body)));
        return read.future();
    }

    /** {@code response} read whole into {@code body}; an error answer cleared of the proxy's login. */
    private McpAnswer answer(HttpClientResponse response, Buffer body) {
        int status = response.statusCode();
        if (status < 400 || proxySecrets.isEmpty()) {
            return new McpAnswer(status, response.headers(), body);
        }
        return new McpAnswer(status, Redaction.of(proxySecrets, response.headers()),
                Buffer.buffer(Redaction.of(proxySecrets, body.toString())));
    }

    private static RequestOptions options(URI url, HttpMethod method, MultiMap headers) {
        RequestOptions options = new RequestOptions().setMethod(method).setAbsoluteURI(url.toString());
        headers.forEach(header -> options.addHeader(header.getKey(), header.getValue()));
        return options;
    }

    private static Throwable transport(Throwable cause, URI url, List<String> proxySecrets) {
        if (cause instanceof CallTimeoutException || cause instanceof McpAnswerTooLargeException
                || cause instanceof CancellationException || cause instanceof McpTransportException) {
            return cause;
        }
        return new McpTransportException("MCP server " + url + " could not be reached or closed the connection: "
                + Redaction.of(proxySecrets, cause.getMessage()), cause);
    }

    /** A response being streamed, and its request, which {@link UpstreamHttp#abandon} ends. */
    record Streamed(HttpClientResponse response, HttpClientRequest request) {
    }

    /** The request of a call, once there is one; resetting it closes its connection at once. */
    private static final class Holder {
        HttpClientRequest request;

        void abandon() {
            if (request != null) {
                UpstreamHttp.abandon(request);
            }
        }
    }
}
