package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.RawSocket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A complete answer written to a caller on a real server and a raw socket: whole however large,
 * and, when a write of it fails (Netty found no direct memory to copy it into, say), the caller's
 * connection is closed — a caller is never left waiting for the rest of a body that will not come.
 */
class AnswerWriterTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final int LARGE = 5 * AnswerWriter.SLICE_BYTES + 123;

    private final Vertx vertx = GatewayVertx.create();

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    @Test
    void aLargeAnswerArrivesWhole() {
        HttpServer server = serve(LARGE, Integer.MAX_VALUE);

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawSocket.Response response = socket.read(BOUND);

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).hasSize(LARGE).matches("x+");
        }
    }

    @Test
    void aSliceWhoseWriteFailsClosesTheCallersConnection() {
        HttpServer server = serve(LARGE, 3); // the head with the first slice, the second slice, then the third fails

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

            assertThat(socket.head(BOUND)).startsWith("HTTP/1.1 200").contains("content-length: " + LARGE);
            assertThat(socket.closedWithin(BOUND)).as("the connection is closed, not left open mid-body").isTrue();
        }
    }

    @Test
    void aSmallAnswerWhoseWriteFailsClosesTheCallersConnection() {
        HttpServer server = serve(1000, 1);

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

            assertThat(socket.closedWithin(BOUND)).as("the connection is closed, not left waiting for a head").isTrue();
        }
    }

    /** A server that answers {@code bodyBytes} of {@code x} through {@link AnswerWriter}, its {@code failing}th write failing. */
    private HttpServer serve(int bodyBytes, int failing) {
        Buffer body = Buffer.buffer("x".repeat(bodyBytes));
        return Await.result(vertx.createHttpServer()
                .connectionHandler(connection -> VertxHooks.channel(connection).pipeline().addFirst(new FailingWrite(failing)))
                .requestHandler(request -> AnswerWriter.end(request.response(), request.connection(),
                        vertx.getOrCreateContext(), body))
                .listen(0, "127.0.0.1"));
    }

    /** Fails the {@code failing}th write of bytes to the socket, as Netty does when it finds no direct memory for a copy. */
    private static final class FailingWrite extends ChannelOutboundHandlerAdapter {

        private final int failing;
        private int writes;

        FailingWrite(int failing) {
            this.failing = failing;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
            if (message instanceof ByteBuf bytes && bytes.isReadable() && ++writes == failing) {
                ReferenceCountUtil.release(message);
                promise.setFailure(new OutOfMemoryError("Cannot reserve 65536 bytes of direct buffer memory"));
                return;
            }
            ctx.write(message, promise);
        }
    }
}
