package io.agentfuse.gateway.server;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.RawSocket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write to a caller that fails (here failed in the connection's pipeline, as Netty fails one it
 * finds no direct memory to copy into) closes the caller's connection: a real server and a raw
 * socket, the connections guarded as the gateway guards them. Without {@link FailedWriteClose},
 * each case left the connection open for the whole bound.
 */
class FailedWriteCloseTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final long MAX_BODY = 1 << 20;

    private final Vertx vertx = GatewayVertx.create();

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    @Test
    void aCompleteAnswerWhoseWriteFailsClosesTheConnection() {
        HttpServer server = serve("xxxx", response -> response.end("x".repeat(1000)));

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

            assertThat(socket.closedWithin(BOUND)).as("closed, not left waiting for a head").isTrue();
        }
    }

    @Test
    void aLaterPieceWhoseWriteFailsClosesTheConnectionAfterWhatWasWritten() {
        // The head with the first piece, the second piece, then the third fails: as a slice of a
        // large answer or an event of a stream would.
        HttpServer server = serve("third", response -> response.setChunked(true)
                .write("first").compose(written -> response.write("second"))
                .compose(written -> response.write("third")).compose(written -> response.end("fourth")));

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

            assertThat(socket.head(BOUND)).startsWith("HTTP/1.1 200");
            String rest = socket.rest(BOUND);
            assertThat(rest).contains("first").contains("second").doesNotContain("third");
        }
    }

    @Test
    void aWriteThatSucceedsLeavesTheConnectionOpenForTheNextRequest() {
        HttpServer server = serve("never written", response -> response.end("ok"));

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            for (int i = 0; i < 3; i++) {
                socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                assertThat(socket.read(BOUND).body()).isEqualTo("ok");
            }
        }
    }

    /**
     * A server whose connections get the gateway's guards ({@link ConnectionGuard#accept}, which
     * installs {@link FailedWriteClose}), and whose write of bytes holding {@code failing} fails.
     */
    private HttpServer serve(String failing, Handler<HttpServerResponse> answer) {
        HttpServerOptions options = new HttpServerOptions();
        ConnectionGuard guard = new ConnectionGuard(vertx, ConfigDefaults.SERVER_LIMITS, MAX_BODY, options,
                new BodyAllowance(MAX_BODY));
        return Await.result(vertx.createHttpServer(options)
                .connectionHandler(connection -> {
                    guard.accept(connection);
                    VertxHooks.channel(connection).pipeline().addFirst(new FailingWrite(failing));
                })
                .requestHandler(request -> answer.handle(request.response()))
                .listen(0, "127.0.0.1"));
    }

    /** Fails the write of bytes that hold {@code failing}. */
    private static final class FailingWrite extends ChannelOutboundHandlerAdapter {

        private final String failing;

        FailingWrite(String failing) {
            this.failing = failing;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
            if (message instanceof ByteBuf bytes && bytes.toString(StandardCharsets.ISO_8859_1).contains(failing)) {
                ReferenceCountUtil.release(message);
                promise.setFailure(new OutOfMemoryError("Cannot reserve 65536 bytes of direct buffer memory"));
                return;
            }
            ctx.write(message, promise);
        }
    }
}
