package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.AuthRequests;
import io.agentfuse.gateway.dialect.EgressProxyException;
import io.agentfuse.gateway.internal.OnContext;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.handler.proxy.ProxyConnectException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ProxyOptions;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An authentication's own requests ({@link AuthRequests}: Vertex AI's token requests) on the gateway's
 * one client stack, {@link UpstreamHttp}: through the egress proxy it picks for the URL, its login sent
 * as {@code Proxy-Authorization: Basic} to a {@code CONNECT} as to a proxied request, within the stack's
 * pools and TLS settings. The answer is read whole, up to {@link AuthRequests.Request#MAX_ANSWER_BYTES}.
 *
 * <p>What the proxy did is told as the proxy's ({@link EgressProxyException}, naming it as
 * {@link EgressProxy#shown}), never as the answer of the host behind it: its 407 to a proxied request
 * or to a {@code CONNECT} (its login refused, or none given; to a {@code CONNECT} a 401 too, which
 * tinyproxy answers a wrong login with), a refused tunnel, a connection to it that could not be opened,
 * or, for a proxied request, that broke. Without it, a proxy's 407 reached google-auth-library as
 * the token endpoint's answer, and the service account was blamed.
 *
 * <p>Thread-safe; its futures complete on the event loop of the caller's context (a worker's: the
 * event loop it was handed work by), where the whole exchange runs, whichever thread asked.
 */
final class AuthHttp implements AuthRequests {

    /** Netty's text for a refused {@code CONNECT}: {@code "http, basic, /proxy:3128 => host:443, status: 407 ..."}. */
    private static final Pattern TUNNEL_STATUS = Pattern.compile("status: (\\d{3})");

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
                .compose(AuthHttp::read)
                .onComplete(exchange));
        Future<Answer> answer = exchange.future();
        if (proxy == null) {
            return answer.toCompletionStage();
        }
        return answer.transform(done -> done.succeeded() ? checked(done.result(), proxy, uri, ssl)
                : Future.failedFuture(told(done.cause(), proxy, uri, ssl))).toCompletionStage();
    }

    /** {@code response} read whole, or failed as too long once it passes {@link Request#MAX_ANSWER_BYTES}. */
    private static Future<Answer> read(HttpClientResponse response) {
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

    /** {@code answer} of a request through {@code proxy}, unless it is the proxy's 407. */
    private static Future<Answer> checked(Answer answer, ProxyOptions proxy, URI uri, boolean ssl) {
        return answer.status() == 407 ? Future.failedFuture(loginRefused(proxy, uri, ssl, 407, null)) : Future.succeededFuture(answer);
    }

    /** {@code failure} of a request through {@code proxy}, told as the proxy's when it was the proxy's. */
    private static Throwable told(Throwable failure, ProxyOptions proxy, URI uri, boolean ssl) {
        for (Throwable at = failure; at != null; at = at.getCause()) {
            if (at instanceof HttpProxyHandler.HttpProxyConnectException tunnel) {
                Matcher status = TUNNEL_STATUS.matcher(String.valueOf(tunnel.getMessage()));
                String code = status.find() ? status.group(1) : null;
                if ("407".equals(code) || "401".equals(code)) { // tinyproxy answers a wrong login 401
                    return loginRefused(proxy, uri, ssl, Integer.parseInt(code), failure);
                }
                return new EgressProxyException("the egress proxy " + EgressProxy.shown(proxy) + " refused the tunnel to "
                        + uri.getHost() + (code == null ? "" : " (HTTP " + code + ")") + " for a request to " + shown(uri),
                        false, failure);
            }
            if (at instanceof ProxyConnectException) {
                return new EgressProxyException("the egress proxy " + EgressProxy.shown(proxy) + " did not open a tunnel to "
                        + uri.getHost() + " for a request to " + shown(uri) + " (it " + TransportText.plainWords(at) + ")", false, failure);
            }
            if (at instanceof ConnectException) {
                return new EgressProxyException("the egress proxy " + EgressProxy.shown(proxy) + " could not be reached for a"
                        + " request to " + shown(uri) + " (the connection " + TransportText.plainWords(at) + "): check "
                        + keys(ssl), false, failure);
            }
        }
        if (!ssl && (failure instanceof IOException || failure instanceof HttpClosedException)) {
            // a proxied request's connection is the proxy's, whoever is behind it
            return new EgressProxyException("the connection to the egress proxy " + EgressProxy.shown(proxy)
                    + (failure instanceof HttpClosedException ? " was closed" : " " + TransportText.plainWords(failure))
                    + " during a request to " + shown(uri), false, failure);
        }
        return failure;
    }

    private static EgressProxyException loginRefused(ProxyOptions proxy, URI uri, boolean ssl, int status, Throwable cause) {
        String shown = EgressProxy.shown(proxy);
        return new EgressProxyException(proxy.getUsername() == null
                ? "the egress proxy " + shown + " asks for a login (HTTP " + status + ") for a request to " + shown(uri)
                        + ", and its URL has none: add user:password@ to " + keys(ssl)
                : "the egress proxy " + shown + " refused the gateway's login (HTTP " + status + ") for a request to " + shown(uri)
                        + ": check the user and password in " + keys(ssl), true, cause);
    }

    /** Where the proxy of a request over TLS ({@code ssl}) or not is configured. */
    private static String keys(boolean ssl) {
        return "server.egressProxy or " + (ssl ? "HTTPS_PROXY" : "HTTP_PROXY");
    }

    /** {@code uri} without a login or a query, which may carry what is not ours to show. */
    private static String shown(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }
}
