package io.agentfuse.gateway.internal.vertx;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;

import java.util.function.Supplier;

/**
 * Every place where the gateway reaches below Vert.x's public API: the Netty channel of a
 * connection, the Netty buffer under a {@link Buffer}, an event loop's context, the server's request
 * decoder, a router's body bookkeeping. These are Vert.x's internals ({@code io.vertx.core.internal},
 * {@code *.impl}) and may change in any release; no other package of the gateway imports them (a test
 * checks), so an upgrade of Vert.x is reviewed here, and {@link VertxHookCheck} proves at start-up,
 * on a real connection, that each hook still finds what it reaches for.
 *
 * <p>A hook that does not find what it expects fails with a {@link MissingHookException} naming it;
 * it never does nothing in silence (a request decoder that is not replaced would let smuggled
 * requests through). The only fallback is {@link #byteBuf(Buffer)}'s copy, which is correct, only slower.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * Channel channel = VertxHooks.channel(connection);
 * ByteBuf bytes = VertxHooks.byteBuf(body);          // no copy
 * }</pre>
 */
public final class VertxHooks {

    /** The name Vert.x gives its HTTP/1.x request decoder in a server connection's pipeline. */
    static final String REQUEST_DECODER = "httpDecoder";
    /** The name Vert.x gives the HTTP/1.x codec in a client connection's pipeline. */
    static final String CLIENT_CODEC = "codec";

    private VertxHooks() {
    }

    /** The Netty channel of a Vert.x connection, a server's or a client's. */
    public static Channel channel(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            return base.channel();
        }
        throw new MissingHookException("the Netty channel of a connection", "a " + connection.getClass().getName()
                + " is not a " + ConnectionBase.class.getName());
    }

    /**
     * Replaces Vert.x's HTTP/1.x request decoder in {@code connection}'s pipeline with the one
     * {@code decoder} makes, unless it was replaced already.
     *
     * @throws MissingHookException when the pipeline has no such decoder under its usual name
     */
    public static void replaceRequestDecoder(HttpConnection connection, Supplier<? extends ServerRequestDecoder> decoder) {
        ChannelPipeline pipeline = channel(connection).pipeline();
        Object installed = pipeline.get(REQUEST_DECODER);
        if (installed instanceof ServerRequestDecoder) {
            return;
        }
        if (!(installed instanceof VertxHttpRequestDecoder)) {
            throw new MissingHookException("the server's request decoder", "the pipeline has "
                    + (installed == null ? "no handler" : "a " + installed.getClass().getName()) + " named '"
                    + REQUEST_DECODER + "', not a " + VertxHttpRequestDecoder.class.getName() + " (" + pipeline.names() + ")");
        }
        pipeline.replace(REQUEST_DECODER, REQUEST_DECODER, decoder.get());
    }

    /**
     * Puts the handler {@code check} makes right after the HTTP/1.1 codec of a client connection, so
     * that it sees every decoded part of an answer before Vert.x does. An HTTP/2 connection has no
     * such codec (Netty's HTTP/2 codec checks its frames): nothing is put there, and this answers false.
     *
     * @throws MissingHookException when an HTTP/1.x connection has no codec under Vert.x's name
     */
    public static boolean checkClientFraming(HttpConnection connection, Supplier<? extends ChannelHandler> check) {
        ChannelPipeline pipeline = channel(connection).pipeline();
        if (pipeline.get(CLIENT_CODEC) instanceof HttpClientCodec) {
            pipeline.addAfter(CLIENT_CODEC, CLIENT_CODEC + "FramingCheck", check.get());
            return true;
        }
        if (pipeline.get(Http2ConnectionHandler.class) != null) {
            return false;
        }
        throw new MissingHookException("a client connection's HTTP/1.1 codec", "the pipeline has no "
                + HttpClientCodec.class.getSimpleName() + " named '" + CLIENT_CODEC + "' (" + pipeline.names() + ")");
    }

    /**
     * The Netty buffer under {@code buffer}, not copied: the same bytes, its readable ones from its
     * reader index. A buffer of another kind (none made by Vert.x is) is copied.
     */
    public static ByteBuf byteBuf(Buffer buffer) {
        return buffer instanceof BufferInternal internal ? internal.getByteBuf() : Unpooled.wrappedBuffer(buffer.getBytes());
    }

    /** {@code bytes} as a Vert.x buffer, not copied. */
    public static Buffer buffer(ByteBuf bytes) {
        return BufferInternal.buffer(bytes);
    }

    /** The class of the Netty transport {@code vertx} runs on (its implementation's). */
    public static Class<?> transportClass(Vertx vertx) {
        return internal(vertx).transport().getClass();
    }

    /** The Netty event loop that runs {@code context}'s tasks (a worker context's too: the loop it belongs to). */
    public static EventLoop eventLoop(Context context) {
        return internal(context).nettyEventLoop();
    }

    /** A new event-loop context of {@code vertx}, on the next of its loops. */
    public static Context newEventLoopContext(Vertx vertx) {
        return internal(vertx).createEventLoopContext();
    }

    /**
     * Marks {@code ctx}'s body as read by the handler about to read it, so that a later
     * {@code BodyHandler} only passes the request on; false, marking nothing, when a body handler
     * ran already.
     */
    public static boolean claimBody(RoutingContext ctx) {
        RoutingContextInternal internal = internal(ctx);
        if (internal.seenHandler(RoutingContextInternal.BODY_HANDLER)) {
            return false;
        }
        internal.visitHandler(RoutingContextInternal.BODY_HANDLER);
        return true;
    }

    /** Hands {@code body} to {@code ctx} as its request body (what {@code ctx.body()} then answers). */
    public static void setBody(RoutingContext ctx, Buffer body) {
        internal(ctx).setBody(body);
    }

    private static VertxInternal internal(Vertx vertx) {
        if (vertx instanceof VertxInternal internal) {
            return internal;
        }
        throw new MissingHookException("Vert.x's transport and contexts", "a " + vertx.getClass().getName()
                + " is not a " + VertxInternal.class.getName());
    }

    private static ContextInternal internal(Context context) {
        if (context instanceof ContextInternal internal) {
            return internal;
        }
        throw new MissingHookException("a context's event loop", "a " + context.getClass().getName()
                + " is not a " + ContextInternal.class.getName());
    }

    private static RoutingContextInternal internal(RoutingContext ctx) {
        if (ctx instanceof RoutingContextInternal internal) {
            return internal;
        }
        throw new MissingHookException("a router's body bookkeeping", "a " + ctx.getClass().getName()
                + " is not a " + RoutingContextInternal.class.getName());
    }
}
