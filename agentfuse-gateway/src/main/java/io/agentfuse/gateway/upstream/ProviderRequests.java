package io.agentfuse.gateway.upstream;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The head of every provider request, in one place: the provider's chat URL (parsed once per
 * provider), then the headers in their order of precedence — the dialect's defaults (the API
 * version), the request's forwarded headers (which may replace them), the content type and what
 * is accepted back, and last the authentication, which nothing replaces. Keys are never logged.
 *
 * <p>A request without forwarded headers (most of them) gets its provider's head as built once:
 * the client only reads a head, and copies its headers into the request it makes.
 *
 * <p>Thread-safe.
 */
final class ProviderRequests {

    private final Map<ProviderEndpoint, Target> targets = new ConcurrentHashMap<>();

    /** The head of a complete call of {@code request}, for {@link ProviderConnections}. */
    CallHead callHead(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return request.headers().isEmpty() ? target.completeCall : target.callHead(target.head(request.headers(), false));
    }

    /**
     * A complete call's address, path and headers, {@code Host} included ({@code Content-Length}
     * is each call's own). The headers are shared: a call copies them into its request.
     */
    record CallHead(ProviderConnections.Address address, String uri, io.netty.handler.codec.http.HttpHeaders headers) {
    }

    /** The head of {@code request}; {@code stream} asks for {@code text/event-stream}. */
    RequestOptions head(UpstreamRequest request, boolean stream) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        if (request.headers().isEmpty()) {
            return stream ? target.streamed : target.complete;
        }
        return target.head(request.headers(), stream);
    }

    /**
     * A provider's chat URL, parsed once — host, port, TLS and path for {@link RequestOptions} — and
     * its heads without forwarded headers, complete and streamed, which are never changed once built.
     */
    private static final class Target {
        private final ProviderEndpoint provider;
        private final String host;
        private final int port;
        private final boolean ssl;
        private final String path;
        private final RequestOptions complete;
        private final RequestOptions streamed;
        private final CallHead completeCall;

        private Target(ProviderEndpoint provider) {
            URI url = URI.create(provider.url());
            String rawPath = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            this.provider = provider;
            this.host = url.getHost();
            this.ssl = "https".equals(url.getScheme());
            this.port = url.getPort() != -1 ? url.getPort() : ssl ? 443 : 80;
            this.path = url.getRawQuery() == null ? rawPath : rawPath + "?" + url.getRawQuery();
            this.complete = head(Map.of(), false);
            this.streamed = head(Map.of(), true);
            this.completeCall = callHead(complete);
        }

        /** {@code head} as {@link ProviderConnections} sends it, with the {@code Host} Vert.x's client would send. */
        CallHead callHead(RequestOptions head) {
            io.netty.handler.codec.http.HttpHeaders headers = new DefaultHttpHeaders();
            head.getHeaders().forEach(header -> headers.add(header.getKey(), header.getValue()));
            headers.set(HttpHeaderNames.HOST, port == (ssl ? 443 : 80) ? host : host + ":" + port);
            String connectTo = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            return new CallHead(new ProviderConnections.Address(connectTo, port, ssl), path, headers);
        }

        RequestOptions head(Map<String, String> forwarded, boolean stream) {
            RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                    .setServer(SocketAddress.inetSocketAddress(port, host))
                    .setHost(host).setPort(port).setSsl(ssl).setURI(path);
            provider.dialect().defaultHeaders().forEach(options::putHeader);
            forwarded.forEach(options::putHeader);
            options.putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.ACCEPT, stream ? "text/event-stream" : "application/json");
            provider.dialect().authHeaders(provider.apiKey()).forEach(options::putHeader);
            return options;
        }
    }
}
