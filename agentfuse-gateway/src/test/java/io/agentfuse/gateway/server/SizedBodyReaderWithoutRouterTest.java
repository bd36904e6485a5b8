package io.agentfuse.gateway.server;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SizedBodyReader#read}, the way model requests are read without a router, on a bare
 * server (no connection guard, so nothing is counted against the large-body budget): it answers
 * {@code got N} for a body of N bytes it read, 413 for one that outgrew the limit, and
 * {@code 299 declined} for a request the reader left to a router.
 */
class SizedBodyReaderWithoutRouterTest {

    private static final int LIMIT = 32 * 1024;
    private static final Duration BOUND = Duration.ofSeconds(10);

    private final Vertx vertx = GatewayVertx.create();
    private final BodyAllowance allowance = new BodyAllowance(1024 * 1024);
    private HttpServer server;

    @BeforeEach
    void start() {
        SizedBodyReader reader = new SizedBodyReader(LIMIT, allowance);
        server = Await.result(vertx.createHttpServer().requestHandler(request -> {
            if (!reader.read(request, body -> {
                if (request.path().equals("/v1/messages")) { // the test's stand-in for a heap that runs out
                    throw new OutOfMemoryError("Java heap space");
                }
                request.response().end("got " + body.length());
            },
                    () -> request.response().setStatusCode(413).end())) {
                request.response().setStatusCode(299).end("declined");
            }
        }).listen(0, "127.0.0.1"));
    }

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    @Test
    void aBodyFramedByItsLengthArrivesWholeHoweverItIsCut() {
        byte[] request = post(20_000).getBytes(StandardCharsets.UTF_8);

        RawSocket.Response response;
        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            for (int start = 0; start < request.length; start += 700) {
                socket.send(Arrays.copyOfRange(request, start, Math.min(request.length, start + 700)));
            }
            response = socket.read(BOUND);
        }

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("got 20000");
        assertThat(allowance.reserved()).isZero();
    }

    @Test
    void aBodyCutOffHalfWayGivesItsPlaceInTheAllowanceBack() {
        byte[] request = post(20_000).getBytes(StandardCharsets.UTF_8);
        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send(Arrays.copyOf(request, request.length - 10_000));
            Eventually.holds(vertx, () -> allowance.reserved() == 20_000);
        }

        Eventually.holds(vertx, () -> allowance.reserved() == 0);
    }

    @Test
    void aChunkedBodyIsReadAndABodyExpectingAContinueIsSentOne() {
        String body = "x".repeat(100);
        String chunked = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
        String expecting = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
                + "Content-Length: 100\r\n\r\n";

        RawSocket.Response whole;
        RawSocket.Response goOn;
        RawSocket.Response continued;
        try (RawSocket first = RawSocket.open(server.actualPort()); RawSocket second = RawSocket.open(server.actualPort())) {
            first.send(chunked);
            whole = first.read(BOUND);
            second.send(expecting);
            goOn = second.read(BOUND); // the body is sent only after this
            second.send(body);
            continued = second.read(BOUND);
        }

        assertThat(whole.body()).isEqualTo("got 100");
        assertThat(goOn.status()).isEqualTo(100);
        assertThat(continued.body()).isEqualTo("got 100");
    }

    @Test
    void aLengthOverTheLimitAndAnExpectationItCannotMeetAreLeftToTheRouter() {
        String overTheLimit = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + (LIMIT + 1)
                + "\r\n\r\n";
        String otherExpectation = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\n"
                + "Content-Length: 1\r\n\r\nx";

        for (String request : new String[] {overTheLimit, otherExpectation}) {
            try (RawSocket socket = RawSocket.open(server.actualPort())) {
                socket.send(request);
                RawSocket.Response response = socket.read(BOUND);
                assertThat(response.status()).as(request).isEqualTo(299);
            }
        }
    }

    @Test
    void aHeapThatRunsOutBeforeTheBodyIsServedIsAShortOverloadNotAHang() {
        // Given a request whose body has arrived, and a heap that runs out as it is handed on (before
        // anything that answers for it runs): the Error escaped to Vert.x, which logged it, and the
        // caller waited for ever
        RawSocket.Response response;
        try (RawSocket socket = RawSocket.open(server.actualPort())) {
            socket.send("POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}");
            response = socket.read(BOUND);
        }

        // Then it is answered as the load it comes from, in the caller's dialect: come back in a second
        assertThat(response.status()).isEqualTo(429);
        assertThat(response.header("retry-after")).isEqualTo("1");
        assertThat(new JsonObject(response.body()).getJsonObject("error").getString("type")).isEqualTo("overloaded");
        assertThat(allowance.reserved()).isZero();
    }

    private static String post(int bodyBytes) {
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + bodyBytes + "\r\n\r\n"
                + "b".repeat(bodyBytes);
    }
}
