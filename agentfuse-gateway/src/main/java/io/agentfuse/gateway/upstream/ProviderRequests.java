package io.agentfuse.gateway.upstream;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The head of every provider request, in one place: the provider's chat URL (parsed once per
 * provider), then the headers in their order of precedence — the dialect's defaults (the API
 * version), the request's forwarded headers (which may replace them), the content type and what
 * is accepted back, and last the authentication, which nothing replaces. Keys are never logged.
 *
 * <p>Thread-safe.
 */
final class ProviderRequests {

    private final Map<ProviderEndpoint, Target> targets = new ConcurrentHashMap<>();

    /** The head of {@code request}; {@code stream} asks for {@code text/event-stream}. */
    RequestOptions head(UpstreamRequest request, boolean stream) {
        ProviderEndpoint provider = request.provider();
        RequestOptions options = targets.computeIfAbsent(provider, ProviderRequests::target).options();
        provider.dialect().defaultHeaders().forEach(options::putHeader);
        request.headers().forEach(options::putHeader);
        options.putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.ACCEPT, stream ? "text/event-stream" : "application/json");
        provider.dialect().authHeaders(provider.apiKey()).forEach(options::putHeader);
        return options;
    }

    /** A provider's chat URL, parsed once: host, port, TLS and path for {@link RequestOptions}. */
    private record Target(String host, int port, boolean ssl, String path) {
        RequestOptions options() {
            return new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port).setSsl(ssl).setURI(path);
        }
    }

    private static Target target(ProviderEndpoint provider) {
        URI url = URI.create(provider.url());
        boolean ssl = "https".equals(url.getScheme());
        int port = url.getPort() != -1 ? url.getPort() : ssl ? 443 : 80;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return new Target(url.getHost(), port, ssl, url.getRawQuery() == null ? path : path + "?" + url.getRawQuery());
    }
}
