package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.AuthRequests;
import io.agentfuse.gateway.dialect.EgressProxyException;
import io.agentfuse.gateway.internal.OnContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ProxyOptions;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CompletionStage;

/**
 * An authentication's own requests ({@link AuthRequests}: Vertex AI's token requests) on the gateway's
 * one client stack, {@link UpstreamHttp}: through the egress proxy it picks for the URL, its login sent
 * as {@code Proxy-Authorization: Basic} to a {@code CONNECT} as to a proxied request, within the stack's
 * pools and TLS settings. The answer is read whole, up to {@link AuthRequests.Request#MAX_ANSWER_BYTES}.
 *
 * <p>What the proxy did is told as the proxy's ({@link EgressProxyException}, {@link ProxyRefusals}),
 * never as the answer of the host behind it — and here also a proxied request's connection that broke.
 * Without it, a proxy's 407 reached google-auth-library as the token endpoint's answer, and the
 * service account was blamed.
 *
 * <p>Thread-safe; its futures complete on the event loop of the caller's context (a worker's: the
 * event loop it was handed work by), where the whole exchange runs, whichever thread asked.
 */
final class AuthHttp implements AuthRequests {

    private final UpstreamHttp http;

    AuthHttp(UpstreamHttp http) {
        this.http = http;
    }

    @Override
    public CompletionStage<Answer> send(Request request) {
        URI uri = request.uri();
        boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80;
        ProxyOptions proxy = uri.getHost() == null ? null : http.egress().proxyFor(uri.getHost(), port, ssl);
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.valueOf(request.method()))
                .setAbsoluteURI(uri.toString())
                .setConnectTimeout(Math.max(1, request.connectTimeout().toMillis()))
                .setIdleTimeout(Math.max(1, request.idleTimeout().toMillis()));
        request.headers().forEach(options::putHeader);
        if (proxy != null) {
            options.setProxyOptions(proxy);
        }
        // The whole exchange runs on the event loop: a caller on a worker thread that composed on a request's
        // futures could set the answer's handlers after its first bytes (or its end) had gone by.
        Promise<Answer> exchange = Promise.promise();
        OnContext.run(http.context(), () -> http.request(options)
                .compose(sent -> sent.send(Buffer.buffer(request.body())))
                .compose(this::read)
                .onComplete(exchange));
        Future<Answer> answer = exchange.future();
        if (proxy == null) {
            return answer.toCompletionStage();
        }
        return answer.recover(failure -> Future.failedFuture(told(failure, proxy, uri, ssl))).toCompletionStage();
    }

    /**
     * {@code response} read whole, or failed as too long once it passes {@link Request#MAX_ANSWER_BYTES};
     * failed unread when it is the egress proxy's refusal of the gateway's login.
     */
    private Future<Answer> read(HttpClientResponse response) {
        EgressProxyException refused = http.refusalIn(response);
        if (refused != null) {
            UpstreamHttp.abandon(response.request());
            return Future.failedFuture(refused);
        }
        Promise<Answer> read = Promise.promise();
        Buffer body = Buffer.buffer();
        response.exceptionHandler(read::tryFail);
        response.handler(chunk -> {
            if (body.length() + chunk.length() > Request.MAX_ANSWER_BYTES) {
                read.tryFail(new UpstreamBodyTooLargeException("the answer of " + response.request().absoluteURI()
                        + " is longer than " + Request.MAX_ANSWER_BYTES + " bytes; reading stopped"));
                UpstreamHttp.abandon(response.request());
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.endHandler(end -> read.tryComplete(new Answer(response.statusCode(),
                response.statusMessage() == null ? "" : response.statusMessage(), response.headers().entries(), body.getBytes())));
        return read.future();
    }

    /**
     * {@code failure} of a request through {@code proxy} once its connection was open (what the proxy did
     * to open it is told by {@link UpstreamHttp#request}): a proxied request's connection is the proxy's,
     * whoever is behind it.
     */
    private static Throwable told(Throwable failure, ProxyOptions proxy, URI uri, boolean ssl) {
        if (!ssl && (failure instanceof IOException || failure instanceof HttpClosedException)) {
            return new EgressProxyException("the connection to the egress proxy " + EgressProxy.shown(proxy)
                    + (failure instanceof HttpClosedException ? " was closed" : " " + TransportText.plainWords(failure))
                    + " during a request to " + ProxyRefusals.shown(uri), false, failure);
        }
        return failure;
    }
}
