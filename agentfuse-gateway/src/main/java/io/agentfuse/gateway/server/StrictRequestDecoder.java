package io.agentfuse.gateway.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpMessage;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;

import java.util.List;

/**
 * Vert.x's HTTP/1.x request decoder, except that a request with both {@code Content-Length} and
 * {@code Transfer-Encoding} is refused, as RFC 9112 §6.1 asks of a server that does not forward
 * it: Netty would drop the length and read the body as chunked, so that what follows the last
 * chunk is served as a second request (request smuggling behind a proxy that trusts the length).
 * The request is marked failed and {@link EdgeErrors#invalid} answers 400 and closes the connection.
 *
 * <p>One per connection, like any Netty decoder; installed by {@link ConnectionGuard}.
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {

    /** The name Vert.x gives its request decoder in the channel pipeline. */
    static final String NAME = "httpDecoder";

    StrictRequestDecoder(HttpServerOptions options) {
        super(options);
    }

    private boolean refused;

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        super.handleTransferEncodingChunkedWithContentLength(message);
        message.setDecoderResult(DecoderResult.failure(new AmbiguousFramingException()));
        refused = true;
    }

    /** After a refused request nothing more is read from the connection: what follows may be smuggled. */
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (refused) {
            buffer.skipBytes(buffer.readableBytes());
            return;
        }
        super.decode(ctx, buffer, out);
    }

    /** Why a request with both framings is refused. */
    static final class AmbiguousFramingException extends IllegalArgumentException {
        AmbiguousFramingException() {
            super("the request has both Content-Length and Transfer-Encoding (RFC 9112 section 6.1): refused");
        }
    }
}
