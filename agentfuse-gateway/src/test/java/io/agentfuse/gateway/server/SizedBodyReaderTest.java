package io.agentfuse.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bodies read in one buffer of their Content-Length, at the harness's limit of 16 KB. */
class SizedBodyReaderTest {

    private static final int LIMIT = 16 * 1024;
    private static final Duration BOUND = Duration.ofSeconds(10);

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aBodyOfExactlyTheLimitReachesTheProviderByteForByte() {
        // Given a gateway whose limit is 16 KB and a body of exactly that many bytes
        harness = GatewayHarness.start();
        String body = bodyOfBytes(LIMIT);

        // When it is sent with its Content-Length
        RawSocket.Response response = post(RawSocket.post("/v1/chat/completions", "127.0.0.1", body));

        // Then it is answered, and the provider got the caller's very bytes (no field changed)
        assertThat(response.status()).isEqualTo(200);
        assertThat(harness.mock.requests()).hasSize(1);
        assertThat(harness.mock.requests().get(0).body()).isEqualTo(body);
    }

    @Test
    void aLongBodySentInManySmallPiecesArrivesWhole() {
        // Given a body long enough to be gathered by the request decoder
        harness = GatewayHarness.start();
        String body = bodyOfBytes(LIMIT);
        byte[] request = RawSocket.post("/v1/chat/completions", "127.0.0.1", body).getBytes(StandardCharsets.UTF_8);

        // When it is written 700 bytes at a time
        RawSocket.Response response;
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            for (int start = 0; start < request.length; start += 700) {
                socket.send(Arrays.copyOfRange(request, start, Math.min(request.length, start + 700)));
            }
            response = socket.read(BOUND);
        }

        // Then the provider got it byte for byte
        assertThat(response.status()).isEqualTo(200);
        assertThat(harness.mock.requests()).hasSize(1);
        assertThat(harness.mock.requests().get(0).body()).isEqualTo(body);
    }

    @Test
    void aRequestRightBehindAGatheredBodyIsItsOwnRequest() {
        // Given a long body and a short one written in one go on one connection
        harness = GatewayHarness.start();
        String longBody = bodyOfBytes(LIMIT);
        String shortBody = bodyOfBytes(300);

        RawSocket.Response first;
        RawSocket.Response second;
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            socket.send(RawSocket.post("/v1/chat/completions", "127.0.0.1", longBody)
                    + RawSocket.post("/v1/chat/completions", "127.0.0.1", shortBody));
            first = socket.read(BOUND);
            second = socket.read(BOUND);
        }

        // Then each is answered, and the provider got each as it was sent
        assertThat(first.status()).isEqualTo(200);
        assertThat(second.status()).isEqualTo(200);
        assertThat(harness.mock.requests()).extracting(request -> request.body()).containsExactly(longBody, shortBody);
    }

    @Test
    void aLongBodySentAgainReachesTheProviderByteForByteAgain() {
        // Given a long body sent once (its long field is then taken from the memo of decoded values)
        harness = GatewayHarness.start();
        String body = bodyOfBytes(LIMIT);
        assertThat(post(RawSocket.post("/v1/chat/completions", "127.0.0.1", body)).status()).isEqualTo(200);

        // When it is sent again
        RawSocket.Response again = post(RawSocket.post("/v1/chat/completions", "127.0.0.1", body));

        // Then the provider got the caller's very bytes both times
        assertThat(again.status()).isEqualTo(200);
        assertThat(harness.mock.requests()).extracting(sent -> sent.body()).containsExactly(body, body);
    }

    @Test
    void aLongBodyCutOffHalfWayCostsOnlyItsOwnRequest() {
        // Given a long body of which only half is sent before its connection is closed
        harness = GatewayHarness.start();
        String body = bodyOfBytes(LIMIT);
        byte[] request = RawSocket.post("/v1/chat/completions", "127.0.0.1", body).getBytes(StandardCharsets.UTF_8);
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            socket.send(Arrays.copyOf(request, request.length - body.length() / 2));
        }

        // When a whole one follows on a new connection
        RawSocket.Response response = post(RawSocket.post("/v1/chat/completions", "127.0.0.1", body));

        // Then that one is served, and the provider never saw the half one
        assertThat(response.status()).isEqualTo(200);
        assertThat(harness.mock.requests()).extracting(sent -> sent.body()).containsExactly(body);
    }

    @Test
    void aBodyOneByteOverTheLimitIs413RequestTooLarge() {
        harness = GatewayHarness.start();

        RawSocket.Response response = post(RawSocket.post("/v1/chat/completions", "127.0.0.1", bodyOfBytes(LIMIT + 1)));

        assertThat(response.status()).isEqualTo(413);
        assertThat(new JsonObject(response.body()).getJsonObject("error").getString("type"))
                .isEqualTo("request_too_large");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aChunkedBodyIsStillReadAndStillLimited() {
        harness = GatewayHarness.start();

        RawSocket.Response small = post(RawSocket.postChunked("/v1/chat/completions", "127.0.0.1", bodyOfBytes(2_000), 1_000));
        RawSocket.Response large = post(RawSocket.postChunked("/v1/chat/completions", "127.0.0.1", bodyOfBytes(LIMIT + 1_000), 1_000));

        assertThat(small.status()).isEqualTo(200);
        assertThat(large.status()).isEqualTo(413);
        assertThat(new JsonObject(large.body()).getJsonObject("error").getString("type"))
                .isEqualTo("request_too_large");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    private RawSocket.Response post(String request) {
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            socket.send(request);
            return socket.read(BOUND);
        }
    }

    /** An OpenAI request for gpt-4o-mini of exactly {@code bytes} bytes, padded in its {@code user} field. */
    private static String bodyOfBytes(int bytes) {
        String prefix = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"user\":\"";
        String suffix = "\"}";
        return prefix + "u".repeat(bytes - prefix.length() - suffix.length()) + suffix;
    }
}
