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
 * Requests framed to be read two ways (RFC 9112 §6.1), two Hosts, cleartext HTTP/2, non-finite
 * numbers, and the Host and Origin rules against DNS rebinding and cross-origin posts: each is
 * refused with a clear error and nothing reaches the provider. {@link IsolatedGateway} checks the
 * gateway's health after each.
 */
class RequestFramingAndOriginTest {

    @RegisterExtension
    static final IsolatedGateway gateway = new IsolatedGateway();

    @Test
    void contentLengthWithTransferEncodingIs400AndNothingIsSmuggled() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    + "GET /admin/breakers HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(400);
            assertThat(errorType(response)).isEqualTo("invalid_request");
            assertThat(socket.rest(BOUND)).doesNotContain("HTTP/1.1");
        }
    }

    /** Before, the connection was closed with no answer at all (Vert.x fails the connection on a broken chunk). */
    @Test
    void aChunkedBodyWhoseFramingBreaksIs400JsonAndNothingReachesTheProvider() {
        int before = gateway.mock().requests().size();
        String part = chatBody("good").encode().substring(0, 20);
        for (String broken : new String[] {"zz\r\n}\r\n0\r\n\r\n", "1\r\n}XX0\r\n\r\n"}) {
            try (RawSocket socket = RawSocket.open(gateway.port())) {
                socket.send("POST /v1/messages HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json\r\n"
                        + "anthropic-version: 2023-06-01\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(part.length()) + "\r\n" + part + "\r\n" + broken
                        + "GET /admin/breakers HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");

                Response response = socket.read(BOUND);
                assertThat(response.status()).as(broken).isEqualTo(400);
                assertThat(response.header("connection")).isEqualTo("close");
                JsonObject error = new JsonObject(response.body()).getJsonObject("error"); // Anthropic's dialect
                assertThat(error.getString("type")).isEqualTo("invalid_request");
                assertThat(error.getString("message")).contains("chunked framing is broken");
                assertThat(socket.rest(BOUND)).doesNotContain("HTTP/1.1");
            }
        }
        assertThat(gateway.mock().requests()).hasSize(before);
    }

    /**
     * A route that reads no body answers before the break is read, and that answer went with the
     * connection Vert.x closed for the break, unsent: the caller got nothing. Now it is sent (a
     * path nobody serves, 404 {@code not_found}), and a request the router reads the body of (a
     * model path with a trailing slash) is refused 400 as above.
     */
    @Test
    void aBrokenBodyThatNoRouteReadsStillGetsItsAnswer() {
        String part = "{\"model\": \"good\"";
        String broken = Integer.toHexString(part.length()) + "\r\n" + part + "\r\nzz\r\n}\r\n0\r\n\r\n";
        String[][] cases = {{"GET /healthz", "200", "ok"}, {"POST /nowhere", "404", "not_found"},
                {"POST /v1/chat/completions/", "400", "chunked framing is broken"}};
        for (String[] request : cases) {
            try (RawSocket socket = RawSocket.open(gateway.port())) {
                socket.send(request[0] + " HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n" + broken);

                Response response = socket.read(BOUND);
                assertThat(response.status()).as(request[0]).isEqualTo(Integer.parseInt(request[1]));
                assertThat(response.body()).as(request[0]).contains(request[2]);
                assertThat(socket.closedWithin(BOUND)).as(request[0]).isTrue();
            }
        }
    }

    @Test
    void aHeadOverTheLimitIs431Json() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("POST /v1/messages HTTP/1.1\r\nHost: " + HOST + "\r\nanthropic-version: 2023-06-01\r\n"
                    + "x-padding: " + "a".repeat(9 * 1024) + "\r\n\r\n");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(431);
            assertThat(response.header("content-type")).startsWith("application/json");
            assertThat(response.header("x-should-retry")).isEqualTo("false");
            JsonObject body = new JsonObject(response.body());
            // The request line was read, so the error is in the caller's dialect: Anthropic's here.
            assertThat(body.getString("type")).isEqualTo("error");
            assertThat(body.getJsonObject("error").getString("type")).isEqualTo("request_too_large");
            assertThat(body.getJsonObject("error").getString("message")).contains("8192");
            assertThat(socket.rest(BOUND)).isEmpty();
        }
    }

    @Test
    void aRequestLineOverTheLimitIs414Json() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("GET /v1/models?q=" + "a".repeat(5 * 1024) + " HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(414);
            assertThat(response.header("x-should-retry")).isEqualTo("false");
            assertThat(errorType(response)).isEqualTo("request_too_large");
            assertThat(new JsonObject(response.body()).getJsonObject("error").getString("message")).contains("4096");
        }
    }

    @Test
    void aHeadThatIsNotHttpIs400Json() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\nthis line has no colon\r\n\r\n");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.header("x-should-retry")).isEqualTo("false");
            assertThat(errorType(response)).isEqualTo("invalid_request");
        }
    }

    @Test
    void twoHostHeadersAre400() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\nHost: evil.example\r\n\r\n");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(400);
            assertThat(errorType(response)).isEqualTo("invalid_request");
        }
    }

    @Test
    void cleartextHttp2IsNotSpoken() {
        try (RawSocket upgrade = RawSocket.open(gateway.port())) {
            upgrade.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n");

            Response response = upgrade.read(BOUND);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("upgrade")).isNull();
        }
        try (RawSocket priorKnowledge = RawSocket.open(gateway.port())) {
            priorKnowledge.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

            String answer = priorKnowledge.rest(BOUND);
            // Vert.x answers the HTTP/2 preface as a bad HTTP/1 request: no HTTP/2 frame ever comes back.
            assertThat(answer.isEmpty() || answer.startsWith("HTTP/") && !answer.matches("(?s)HTTP/\\S+ 2.*"))
                    .as(answer).isTrue();
        }
    }

    @Test
    void aNonFiniteNumberNeverReachesTheProvider() {
        int before = gateway.mock().requests().size();
        String body = "{\"model\": \"good\", \"seed\": 1e999, \"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}";
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, body));

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(400);
            assertThat(errorType(response)).isEqualTo("invalid_request");
        }
        assertThat(gateway.mock().requests()).hasSize(before);
    }

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
