package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;

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
 * <p>A request without forwarded headers (most of them) gets its provider's head as built once,
 * complete or streamed: a call writes its head's bytes and its own length ({@link CallHead}).
 *
 * <p>Thread-safe.
 */
final class ProviderRequests {

    private static final String APPLICATION_JSON = "application/json";
    private static final String TEXT_EVENT_STREAM = "text/event-stream";

    private final Map<ProviderEndpoint, Target> targets = new ConcurrentHashMap<>();

    /** The head of a complete call of {@code request}, for {@link ProviderConnections}. */
    CallHead callHead(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return request.headers().isEmpty() ? target.completeCall : target.callHead(request.headers(), APPLICATION_JSON);
    }

    /**
     * A call's address and its head as bytes, written once: the request line and headers,
     * {@code Host} included, up to the value of {@code Content-Length}, which is each call's own
     * ({@link #CONTENT_LENGTH}). Shared by the calls: never change {@code head}.
     */
    record CallHead(ProviderConnections.Address address, byte[] head) {

        /** The bytes that end a head: CR LF CR LF. */
        private static final int CRLF_CRLF = 0x0D0A0D0A;
        /** The longest length a body may have (ten digits), and the head's end. */
        private static final int MAX_LENGTH_AND_END = 10 + Integer.BYTES;

        /**
         * Writes a request on {@code connection}: this head, the length of {@code bytes}, and the
         * bytes (lent: a retry sends them again). A body on the heap is copied into the head's
         * buffer, since the socket takes direct memory only (Netty would copy it anyway), so the
         * request is one write; a direct one follows the head. A failed write reaches the
         * connection's handler, which ends the call ({@link ProviderConnections.Receiver#broken}).
         */
        void write(Channel connection, Buffer bytes) {
            ByteBuf body = VertxHooks.byteBuf(bytes);
            int length = body.readableBytes();
            boolean joined = !body.isDirect();
            ByteBuf out = connection.alloc().directBuffer(head.length + MAX_LENGTH_AND_END + (joined ? length : 0));
            out.writeBytes(head);
            ByteBufUtil.writeAscii(out, Integer.toString(length));
            out.writeInt(CRLF_CRLF);
            if (joined) {
                out.writeBytes(body, body.readerIndex(), length);
                connection.writeAndFlush(out, connection.voidPromise());
            } else {
                connection.write(out, connection.voidPromise());
                connection.writeAndFlush(body, connection.voidPromise());
            }
        }
    }

    /** The last header of every call head, its value left to the call. */
    static final String CONTENT_LENGTH = "content-length: ";

    /** The head of a streamed call of {@code request}: as {@link #callHead}'s, asking for {@code text/event-stream}. */
    CallHead streamHead(UpstreamRequest request) {
        Target target = targets.computeIfAbsent(request.provider(), Target::new);
        return request.headers().isEmpty() ? target.streamCall : target.callHead(request.headers(), TEXT_EVENT_STREAM);
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
        private final CallHead completeCall;
        private final CallHead streamCall;

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
            this.completeCall = callHead(Map.of(), APPLICATION_JSON);
            this.streamCall = callHead(Map.of(), TEXT_EVENT_STREAM);
        }

        /**
         * A call's head, accepting {@code accept} back, with the {@code Host} Vert.x's client would send, encoded as
         * Netty's request encoder would: the path in UTF-8, names and values in US-ASCII. The
         * headers are validated on the way (Netty's {@link DefaultHttpHeaders} refuses a name that
         * is not a token and a value with a line break), so nothing a key or caller holds can add
         * a header.
         */
        CallHead callHead(Map<String, String> forwarded, String accept) {
            io.netty.handler.codec.http.HttpHeaders headers = new DefaultHttpHeaders();
            writeHeaders(forwarded, accept, headers::set);
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

        /** The headers in their order of precedence, each {@code set} replacing one of its name before it. */
        private void writeHeaders(Map<String, String> forwarded, String accept, BiConsumer<String, String> set) {
            provider.dialect().defaultHeaders().forEach(set);
            forwarded.forEach(set);
            provider.headers().forEach(set);
            set.accept(HttpHeaders.CONTENT_TYPE.toString(), APPLICATION_JSON);
            set.accept(HttpHeaders.ACCEPT.toString(), accept);
            provider.dialect().authHeaders(provider.apiKey()).forEach(set);
        }
    }
}
