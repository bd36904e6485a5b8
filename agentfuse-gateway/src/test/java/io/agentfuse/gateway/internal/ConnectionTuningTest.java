package io.agentfuse.gateway.internal;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.RawSocket;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Tuned connections on a real server and a raw-socket client: flush consolidation installed once, at the head, pooled buffers, nothing left unflushed. */
class ConnectionTuningTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final Vertx vertx = GatewayVertx.create();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aConnectionGetsOneFlushConsolidatingHandlerAtTheHeadOfItsPipelineAndPooledBuffers() throws Exception {
        CompletableFuture<List<String>> pipeline = new CompletableFuture<>();
        CompletableFuture<ByteBufAllocator> allocator = new CompletableFuture<>();
        HttpServer server = start(vertx.createHttpServer().connectionHandler(connection -> {
            ConnectionTuning.install(connection);
            ConnectionTuning.install(connection);
            pipeline.complete(VertxHooks.channel(connection).pipeline().names());
            allocator.complete(VertxHooks.channel(connection).alloc());
        }).requestHandler(request -> request.response().end("ok")));

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            assertThat(socket.read(BOUND).status()).isEqualTo(200);
        }

        List<String> handlers = pipeline.get(10, TimeUnit.SECONDS);
        assertThat(handlers.get(0)).isEqualTo(ConnectionTuning.NAME);
        assertThat(handlers.stream().filter(ConnectionTuning.NAME::equals)).hasSize(1);
        assertThat(allocator.get(10, TimeUnit.SECONDS)).isSameAs(PooledByteBufAllocator.DEFAULT);
    }

    @Test
    void anAnswerWrittenLaterThanItsRequestWasReadStillReachesTheCaller() {
        // Given an answer written by a timer, when nothing is being read on its connection: its
        // flush is held for the end of the loop's turn, which must come without another read
        HttpServer server = start(vertx.createHttpServer().connectionHandler(ConnectionTuning::install)
                .requestHandler(request -> vertx.setTimer(50, id -> request.response().setChunked(true)
                        .write("first ").onSuccess(v -> request.response().end("and last")))));

        RawSocket.Response response;
        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            response = socket.read(BOUND);
        }

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("first and last");
    }

    @Test
    void answersToManyConnectionsWrittenInOneTurnOfTheLoopAllReachTheirCallers() throws Exception {
        // Given a server whose one timer answers every waiting request at once: the flushes of all
        // those connections wait for the same turn of the loop
        int callers = 40;
        List<io.vertx.core.http.HttpServerRequest> waiting = new ArrayList<>();
        HttpServer server = start(vertx.createHttpServer().connectionHandler(ConnectionTuning::install)
                .requestHandler(request -> {
                    waiting.add(request);
                    if (waiting.size() == callers) {
                        vertx.setTimer(20, id -> waiting.forEach(each -> each.response().end(each.path())));
                    }
                }));
        List<RawSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < callers; i++) {
                RawSocket socket = RawSocket.open(server.actualPort());
                sockets.add(socket);
                socket.send("GET /" + i + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            }

            for (int i = 0; i < callers; i++) {
                assertThat(sockets.get(i).read(BOUND).body()).isEqualTo("/" + i);
            }
        } finally {
            sockets.forEach(RawSocket::close);
        }
    }

    @Test
    void anAnswerLargerThanTheSocketTakesAtOnceArrivesWhole() {
        // Written from a timer, so its flush waits for the loop; the connection stops being
        // writable on the way, which flushes at once what is held
        String large = "x".repeat(4 * 1024 * 1024);
        HttpServer server = start(vertx.createHttpServer().connectionHandler(ConnectionTuning::install)
                .requestHandler(request -> vertx.setTimer(10, id -> request.response().end(large))));

        RawSocket.Response response;
        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            response = socket.read(BOUND);
        }

        assertThat(response.body()).isEqualTo(large);
    }

    @Test
    void twoRequestsInOneWriteAreBothAnswered() {
        HttpServer server = start(vertx.createHttpServer().connectionHandler(ConnectionTuning::install)
                .requestHandler(request -> request.response().end(request.path())));

        RawSocket.Response first;
        RawSocket.Response second;
        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET /one HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /two HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            first = socket.read(BOUND);
            second = socket.read(BOUND);
        }

        assertThat(first.body()).isEqualTo("/one");
        assertThat(second.body()).isEqualTo("/two");
    }

    private static HttpServer start(HttpServer server) {
        try {
            return server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
