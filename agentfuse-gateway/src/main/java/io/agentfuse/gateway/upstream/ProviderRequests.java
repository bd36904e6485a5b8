package io.agentfuse.gateway.upstream;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The requests of provider calls: each provider's chat URL parsed once (host, port, TLS, path) and
 * its headers, complete and streamed, built once in their order of precedence — the dialect's
 * defaults (its API version), the caller's forwarded headers, the provider's own {@code headers:},
 * the content type and what is accepted back, then the authentication, which nothing replaces.
 * A call with forwarded headers gets headers of its own.
 *
 * <p>Vert.x's header map checks every name and value as it is built (a name that is not a token, a
 * value with a line break is refused), so nothing a key or a caller holds can add a header: such a
 * call fails, as an {@code ERROR}. Keys are never logged.
 *
 * <p>Thread-safe: the parsed providers are kept in a concurrent map and never changed.
 */
final class ProviderRequests {

    private static final String APPLICATION_JSON = "application/json";
    private static final String TEXT_EVENT_STREAM = "text/event-stream";

    private final Map<ProviderEndpoint, Target> targets = new ConcurrentHashMap<>();

    /** The request of a complete call of {@code request}. */
    RequestOptions complete(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return target.options(request.headers().isEmpty() ? target.completeHeaders()
                : target.headers(request.headers(), APPLICATION_JSON));
    }

    /** The request of a streamed call of {@code request}: as {@link #complete}'s, accepting {@code text/event-stream}. */
    RequestOptions stream(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return target.options(request.headers().isEmpty() ? target.streamHeaders()
                : target.headers(request.headers(), TEXT_EVENT_STREAM));
    }

    /** A provider's chat URL, parsed once, and its headers without forwarded ones, never changed once built. */
    private static final class Target {
        private final ProviderEndpoint provider;
        private final String host;
        private final int port;
        private final boolean ssl;
        private final String uri;
        private volatile MultiMap completeHeaders;
        private volatile MultiMap streamHeaders;

        private Target(ProviderEndpoint provider) {
            URI url = URI.create(provider.url());
            String rawPath = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            this.provider = provider;
            String named = url.getHost();
            this.host = named.startsWith("[") && named.endsWith("]") ? named.substring(1, named.length() - 1) : named;
            this.ssl = "https".equals(url.getScheme());
            this.port = url.getPort() != -1 ? url.getPort() : ssl ? 443 : 80;
            this.uri = url.getRawQuery() == null ? rawPath : rawPath + "?" + url.getRawQuery();
        }

        /**
         * A call's request: Vert.x copies the headers into its own, so one map serves every call. A
         * fresh {@link RequestOptions} each time, since the client may set its proxy on it.
         */
        RequestOptions options(MultiMap headers) {
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
                headers = headers(Map.of(), TEXT_EVENT_STREAM);
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
            provider.dialect().authHeaders(provider.apiKey()).forEach(set);
            return headers;
        }
    }
}
