package io.agentfuse.gateway.upstream;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The head of every provider request, in one place: the provider's chat URL (parsed once per
 * provider), then the headers in their order of precedence — the dialect's defaults (the API
 * version), the request's forwarded headers (which may replace them), the content type and what
 * is accepted back, and last the authentication, which nothing replaces. Keys are never logged.
 *
 * <p>A request without forwarded headers (most of them) gets its provider's head as built once:
 * a complete call writes its head's bytes and its own length ({@link CallHead}); Vert.x's client,
 * which streams, copies the headers of its head into the request it makes.
 *
 * <p>Thread-safe.
 */
final class ProviderRequests {

    private final Map<ProviderEndpoint, Target> targets = new ConcurrentHashMap<>();

    /** The head of a complete call of {@code request}, for {@link ProviderConnections}. */
    CallHead callHead(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return request.headers().isEmpty() ? target.completeCall : target.callHead(request.headers());
    }

    /**
     * A complete call's address and its head as bytes, written once: the request line and headers,
     * {@code Host} included, up to the value of {@code Content-Length}, which is each call's own
     * ({@link #CONTENT_LENGTH}). Shared by the calls: never change {@code head}.
     */
    record CallHead(ProviderConnections.Address address, byte[] head) {
    }

    /** The last header of every call head, its value left to the call. */
    static final String CONTENT_LENGTH = "content-length: ";

    /** The head of a streamed call of {@code request}, for Vert.x's client: it asks for {@code text/event-stream}. */
    RequestOptions streamHead(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return request.headers().isEmpty() ? target.streamed : target.streamHead(request.headers());
    }

    /**
     * A provider's chat URL, parsed once — host, port, TLS and path — and its heads without
     * forwarded headers, complete and streamed, which are never changed once built.
     */
    private static final class Target {
        private final ProviderEndpoint provider;
        private final String host;
        private final int port;
        private final boolean ssl;
        private final String path;
        private final ProviderConnections.Address address;
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
            String connectTo = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            this.address = new ProviderConnections.Address(connectTo, port, ssl);
            this.streamed = streamHead(Map.of());
            this.completeCall = callHead(Map.of());
        }

        /**
         * A complete call's head, with the {@code Host} Vert.x's client would send, encoded as
         * Netty's request encoder would: the path in UTF-8, names and values in US-ASCII. The
         * headers are validated on the way (Netty's {@link DefaultHttpHeaders} refuses a name that
         * is not a token and a value with a line break), so nothing a key or caller holds can add
         * a header.
         */
        CallHead callHead(Map<String, String> forwarded) {
            io.netty.handler.codec.http.HttpHeaders headers = new DefaultHttpHeaders();
            writeHeaders(forwarded, "application/json", headers::set);
            headers.set(HttpHeaderNames.HOST, port == (ssl ? 443 : 80) ? host : host + ":" + port);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            bytes.writeBytes("POST ".getBytes(StandardCharsets.US_ASCII));
            bytes.writeBytes(path.getBytes(StandardCharsets.UTF_8));
            bytes.writeBytes(" HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            headers.iteratorCharSequence().forEachRemaining(header -> bytes.writeBytes(
                    (header.getKey() + ": " + header.getValue() + "\r\n").getBytes(StandardCharsets.US_ASCII)));
            bytes.writeBytes(CONTENT_LENGTH.getBytes(StandardCharsets.US_ASCII));
            return new CallHead(address, bytes.toByteArray());
        }

        RequestOptions streamHead(Map<String, String> forwarded) {
            RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                    .setServer(SocketAddress.inetSocketAddress(port, host))
                    .setHost(host).setPort(port).setSsl(ssl).setURI(path);
            writeHeaders(forwarded, "text/event-stream", options::putHeader);
            return options;
        }

        /** The headers in their order of precedence, each {@code set} replacing one of its name before it. */
        private void writeHeaders(Map<String, String> forwarded, String accept, BiConsumer<String, String> set) {
            provider.dialect().defaultHeaders().forEach(set);
            forwarded.forEach(set);
            set.accept(HttpHeaders.CONTENT_TYPE.toString(), "application/json");
            set.accept(HttpHeaders.ACCEPT.toString(), accept);
            provider.dialect().authHeaders(provider.apiKey()).forEach(set);
        }
    }
}
