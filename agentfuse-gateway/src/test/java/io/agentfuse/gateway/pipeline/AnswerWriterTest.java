package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A complete answer written to a caller in slices arrives whole, with its length: a real server and
 * a raw socket. (A slice whose write fails closes the connection: {@code server.FailedWriteCloseTest}.)
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
        HttpServer server = serve(LARGE);

        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawSocket.Response response = socket.read(BOUND);

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).hasSize(LARGE).matches("x+");
        }
    }

    /** A server that answers {@code bodyBytes} of {@code x} through {@link AnswerWriter}. */
    private HttpServer serve(int bodyBytes) {
        Buffer body = Buffer.buffer("x".repeat(bodyBytes));
        return Await.result(vertx.createHttpServer()
                .requestHandler(request -> AnswerWriter.end(request.response(), request.connection(),
                        vertx.getOrCreateContext(), body))
                .listen(0, "127.0.0.1"));
    }
}
