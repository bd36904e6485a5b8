package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.chatBody;
import static io.agentfuse.gateway.limits.IsolatedGateway.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Locale;

/**
 * The Host and Origin rules against DNS rebinding and cross-origin posts, and the body types the gateway
 * serves (JSON, not compressed): a foreign Host, a cross-origin or text/plain post and a compressed body
 * are refused with a clear error and nothing reaches the provider; an allowed origin gets CORS.
 * {@link IsolatedGateway} checks the gateway's health after each.
 */
class RequestOriginAndEncodingTest {

    @RegisterExtension
    static final IsolatedGateway gateway = new IsolatedGateway();

    @Test
    void aForeignHostIsRefusedBetweenAllowedOnes() {
        // The gate remembers the last Host it allowed: one allowed right before must not let a foreign one in
        assertThat(healthzWithHost("localhost:" + gateway.port())).isEqualTo(200);
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send(RawSocket.post("/v1/chat/completions", "rebound.evil.example", chatBody("good").encode()));

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(403);
            assertThat(errorType(response)).isEqualTo("forbidden");
        }
        assertThat(healthzWithHost("localhost:" + gateway.port())).isEqualTo(200);
        assertThat(healthzWithHost("rebound.evil.example:" + gateway.port())).isEqualTo(403);
    }

    private int healthzWithHost(String host) {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
            return socket.read(BOUND).status();
        }
    }

    @Test
    void aCrossOriginTextPlainPostIsNotServed() {
        int before = gateway.mock().requests().size();
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            String body = chatBody("good").encode();
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nOrigin: https://evil.example\r\n"
                    + "Content-Type: text/plain\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(403);
            assertThat(errorType(response)).isEqualTo("forbidden");
            assertThat(response.header("vary")).as("the refusal depends on the Origin").isEqualToIgnoringCase("origin");
        }
        assertThat(gateway.mock().requests()).hasSize(before);
    }

    @Test
    void aTextPlainBodyIs415() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            String body = chatBody("good").encode();
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(415);
            assertThat(errorType(response)).isEqualTo("invalid_request");
        }
    }

    @ParameterizedTest(name = "Content-Encoding: {0}")
    @ValueSource(strings = {"gzip", "deflate", "br", "zstd", "gzip, identity"})
    void aCompressedBodyIs415SayingSoAndNothingIsInflatedOrSent(String coding) {
        int before = gateway.mock().requests().size();
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            String body = chatBody("good").encode(); // plain JSON labelled compressed is refused too: the label is wrong
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json\r\n"
                    + "Content-Encoding: " + coding + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(415);
            assertThat(errorType(response)).isEqualTo("invalid_request");
            assertThat(response.body()).contains("must not be compressed");
            assertThat(response.head().toLowerCase(Locale.ROOT)).contains("accept-encoding: identity");
        }
        assertThat(gateway.mock().requests()).hasSize(before);
    }

    @Test
    void aRefusalOnAnMcpPathIsAJsonRpcErrorNotAModelDialectsError() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
            socket.send("POST /mcp/files HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(415);
            JsonObject answer = new JsonObject(response.body());
            assertThat(answer.getString("jsonrpc")).isEqualTo("2.0");
            assertThat(answer.getJsonObject("error").getJsonObject("data").getString("type")).isEqualTo("invalid_request");
            assertThat(response.body()).doesNotContain("insufficient_quota");
        }
    }

    @Test
    void anIdentityCodedBodyIsServed() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            String body = chatBody("good").encode();
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json\r\n"
                    + "Content-Encoding: identity\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            assertThat(socket.read(BOUND).status()).isEqualTo(200);
        }
    }

    @Test
    void anAllowedOriginGetsPreflightAndCorsHeaders() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nOrigin: https://app.example\r\n"
                    + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type, authorization\r\n\r\n");

            Response preflight = socket.read(BOUND);
            assertThat(preflight.status()).isEqualTo(204);
            assertThat(preflight.header("access-control-allow-origin")).isEqualTo("https://app.example");
            assertThat(preflight.header("access-control-allow-methods")).contains("POST");
            assertThat(preflight.header("access-control-allow-headers")).contains("content-type");
        }
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            String body = chatBody("good").encode();
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nOrigin: https://app.example\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("access-control-allow-origin")).isEqualTo("https://app.example");
            // a browser's script reads only the headers exposed to it: every one the gateway answers with
            assertThat(response.header("access-control-expose-headers").split(", ")).contains("x-agentfuse-model",
                    "x-agentfuse-budget", "x-agentfuse-hedged", "x-agentfuse-provider-request-id", "retry-after-ms");
        }
    }
}
