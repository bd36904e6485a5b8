package io.agentfuse.gateway.internal.vertx;

import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;

/**
 * Vert.x's HTTP/1.x request decoder, as a base for a decoder that replaces it in a server
 * connection's pipeline ({@link VertxHooks#replaceRequestDecoder}): Vert.x's connection expects
 * the requests its own decoder makes, so a replacement must be one. What a subclass overrides is
 * Netty's ({@code HttpObjectDecoder}'s), not Vert.x's.
 *
 * <p>One per connection, like any Netty decoder.
 */
public abstract class ServerRequestDecoder extends VertxHttpRequestDecoder {

    /** A decoder with the limits of {@code options} (line, header and chunk sizes). */
    protected ServerRequestDecoder(HttpServerOptions options) {
        super(options);
    }
}
