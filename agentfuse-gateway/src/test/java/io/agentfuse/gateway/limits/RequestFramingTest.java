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

/**
 * Requests framed to be read two ways (RFC 9112 §6.1), broken chunked framing, heads over their limits
 * or not HTTP at all, two Hosts, cleartext HTTP/2 and non-finite numbers: each is refused with a clear
 * error and nothing reaches the provider. {@link IsolatedGateway} checks the gateway's health after each.
 */
class RequestFramingTest {

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
            assertThat(response.body()).as("says what is wrong, not that a number is").contains("both Content-Length and Transfer-Encoding");
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
}
