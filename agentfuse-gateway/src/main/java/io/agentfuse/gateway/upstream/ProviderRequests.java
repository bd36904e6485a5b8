package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.internal.OnContext;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The requests of provider calls: each provider's chat URL parsed once (host, port, TLS, path) and
 * its headers, complete and streamed, built once in their order of precedence — the dialect's
 * defaults (its API version), the caller's forwarded headers, the provider's own {@code headers:},
 * the content type and what is accepted back (the dialect's type, uncompressed: the gateway reads no
 * coded answer, {@link UpstreamFailures#requireUncoded}), then the authentication, which nothing replaces.
 * A call with forwarded headers gets headers of its own. Fixed authentication ({@link
 * UpstreamAuth#fixedHeaders()}) is built in; a provider that authenticates each call over its final
 * form (a SigV4 signature, an access token) gets it from {@link #signer}, last, just before the call goes out.
 *
 * <p>Vert.x's header map checks every name and value as it is built (a name that is not a token, a
 * value with a line break is refused), so nothing a key or a caller holds can add a header: such a
 * call fails, as an {@code ERROR}. Keys are never logged.
 *
 * <p>Thread-safe: the parsed providers are kept in a concurrent map and never changed.
 */
final class ProviderRequests {

    private static final String APPLICATION_JSON = "application/json";

    private final Map<ProviderEndpoint, Target> targets = new ConcurrentHashMap<>();

    /** The request of a complete call of {@code request}. */
    RequestOptions complete(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return target.options(target.completeUri, request.headers().isEmpty() ? target.completeHeaders()
                : target.headers(request.headers(), APPLICATION_JSON));
    }

    /** The request of a streamed call of {@code request}: as {@link #complete}'s, accepting the dialect's stream type. */
    RequestOptions stream(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return target.options(target.streamUri, request.headers().isEmpty() ? target.streamHeaders()
                : target.headers(request.headers(), request.provider().dialect().streamMediaType()));
    }

    /**
     * What authenticates each call of {@code provider} over its final form, with {@code means};
     * {@code null} when its authentication is fixed (and already in its headers).
     */
    static Signer signer(ProviderEndpoint provider, UpstreamAuth.Means means) {
        UpstreamAuth auth = provider.auth();
        if (auth.fixedHeaders() != null) {
            return null;
        }
        return (options, body) -> {
            Map<String, String> headers = new LinkedHashMap<>();
            options.getHeaders().forEach(headers::put);
            String scheme = Boolean.TRUE.equals(options.isSsl()) ? "https" : "http";
            String host = options.getHost().indexOf(':') >= 0 ? "[" + options.getHost() + "]" : options.getHost();
            URI uri = URI.create(scheme + "://" + host + ":" + options.getPort() + options.getURI());
            return auth.headers(new UpstreamAuth.Outgoing(options.getMethod().name(), uri, headers, body), means)
                    .thenApply(added -> {
                        MultiMap signed = HttpHeaders.headers().addAll(options.getHeaders());
                        added.forEach(signed::set);
                        return options.setHeaders(signed);
                    });
        };
    }

    /** Adds a call's authentication over its final headers and body; the call then goes out exactly as given. */
    @FunctionalInterface
    interface Signer {
        CompletionStage<RequestOptions> sign(RequestOptions options, Buffer body);
    }

    /**
     * Asks {@code http} for the request of a call of {@code provider} as {@code options} say, signed
     * first over {@code body} by {@code signer} when it is not {@code null}, and hands it to
     * {@code leased} on {@code context}; a call that {@code over} says has ended meanwhile is not
     * sent, and a failed signature goes to {@code failed} (in {@link UpstreamFailures}'s terms).
     */
    static void lease(UpstreamHttp http, RequestOptions options, Buffer body, Signer signer, Context context,
                      ProviderEndpoint provider, BooleanSupplier over, Consumer<Throwable> failed,
                      Handler<AsyncResult<HttpClientRequest>> leased) {
        if (signer == null) {
            http.request(options).onComplete(leased);
            return;
        }
        signer.sign(options, body).whenComplete((signed, failure) -> OnContext.run(context, () -> {
            if (over.getAsBoolean()) {
                return; // timed out or cancelled while it was signed
            }
            if (failure != null) {
                failed.accept(UpstreamFailures.of(provider, failure));
            } else {
                http.request(signed).onComplete(leased);
            }
        }));
    }

    /**
     * Sends {@code body} on {@code request} and returns the provider's answer. A body that cannot be
     * written (the write found no direct memory, its connection broke) fails the answer at once with
     * its cause, and the request is reset: Vert.x's {@code send(body)} drops that failure, and the
     * call would wait for an answer to a request its provider never got, until its timeout.
     */
    static Future<HttpClientResponse> send(HttpClientRequest request, Buffer body) {
        Promise<HttpClientResponse> answer = Promise.promise();
        request.end(body).onFailure(unwritten -> {
            answer.tryFail(unwritten);
            request.reset(0, unwritten);
        });
        request.response().onComplete(answered -> {
            if (answered.succeeded()) {
                answer.tryComplete(answered.result());
            } else {
                answer.tryFail(answered.cause());
            }
        });
        return answer.future();
    }

    /** A provider's chat URL, parsed once, and its headers without forwarded ones, never changed once built. */
    private static final class Target {
        private final ProviderEndpoint provider;
        private final String host;
        private final int port;
        private final boolean ssl;
        private final String completeUri;
        private final String streamUri;
        private volatile MultiMap completeHeaders;
        private volatile MultiMap streamHeaders;

        private Target(ProviderEndpoint provider) {
            URI url = URI.create(provider.url(false));
            this.provider = provider;
            String named = url.getHost();
            this.host = named.startsWith("[") && named.endsWith("]") ? named.substring(1, named.length() - 1) : named;
            this.ssl = "https".equals(url.getScheme());
            this.port = url.getPort() != -1 ? url.getPort() : ssl ? 443 : 80;
            this.completeUri = requestUri(url);
            this.streamUri = requestUri(URI.create(provider.url(true)));
        }

        private static String requestUri(URI url) {
            String rawPath = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            return url.getRawQuery() == null ? rawPath : rawPath + "?" + url.getRawQuery();
        }

        /**
         * A call's request: Vert.x copies the headers into its own, so one map serves every call. A
         * fresh {@link RequestOptions} each time, since the client may set its proxy on it.
         */
        RequestOptions options(String uri, MultiMap headers) {
            return new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port).setSsl(ssl).setURI(uri)
                    .setHeaders(headers);
        }

        // Built on first use (a header the map refuses fails that call, not the router that made the
        // provider); a race builds an equal map twice.
        MultiMap completeHeaders() {
            MultiMap headers = completeHeaders;
            if (headers == null) {
                headers = headers(Map.of(), APPLICATION_JSON);
                completeHeaders = headers;
            }
            return headers;
        }

        MultiMap streamHeaders() {
            MultiMap headers = streamHeaders;
            if (headers == null) {
                headers = headers(Map.of(), provider.dialect().streamMediaType());
                streamHeaders = headers;
            }
            return headers;
        }

        /** The headers in their order of precedence, each replacing one of its name before it. */
        MultiMap headers(Map<String, String> forwarded, String accept) {
            MultiMap headers = HttpHeaders.headers();
            BiConsumer<String, String> set = headers::set;
            provider.dialect().defaultHeaders().forEach(set);
            forwarded.forEach(set);
            provider.headers().forEach(set);
            set.accept(HttpHeaders.CONTENT_TYPE.toString(), APPLICATION_JSON);
            set.accept(HttpHeaders.ACCEPT.toString(), accept);
            set.accept(HttpHeaders.ACCEPT_ENCODING.toString(), UpstreamFailures.IDENTITY); // no header would mean any coding
            Map<String, String> auth = provider.auth().fixedHeaders();
            if (auth != null) {
                auth.forEach(set);
            }
            return headers;
        }
    }
}
