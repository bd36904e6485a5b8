package io.agentfuse.gateway.scenario;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An upstream 4xx passes through with the provider's headers — as the provider wrote them, byte for
 * byte, from a raw socket: header values no HTTP library of ours would write — except those that
 * belong to the gateway's own session with the provider or to its host (cookies, Alt-Svc, HSTS),
 * and those the gateway writes itself. A value the HTTP codec refuses costs its attempt only, and
 * the chain goes on.
 */
class UpstreamErrorHeadersScenarioTest {

    private static final String BODY = "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\"}}";

    private GatewayHarness harness;
    private ServerSocket upstream;

    @AfterEach
    void stop() throws IOException {
        if (harness != null) {
            harness.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void aProvidersOwnHeadersPassThroughWithTheir4xx() throws IOException {
        start("request-id: req_011\r\nx-ratelimit-remaining-requests: 59\r\nx-note: a\tb\r\nx-latin: caf\u00e9\r\n");

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).isEqualTo(BODY);
        assertThat(reply.header("request-id")).isEqualTo("req_011");
        assertThat(reply.header("x-ratelimit-remaining-requests")).isEqualTo("59");
        assertThat(reply.header("x-note")).isEqualTo("a\tb");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
    }

    @Test
    void aProvidersCookiesAndWhatItSaysOfItsOwnHostStayWithTheGateway() throws IOException {
        // As api.openai.com answers behind Cloudflare: its bot-management cookies, its host's policies
        start("set-cookie: __cf_bm=abc; path=/; domain=.api.openai.com; HttpOnly; Secure\r\n"
                + "set-cookie: _cfuvid=def; path=/; domain=.api.openai.com; HttpOnly; Secure\r\n"
                + "set-cookie2: legacy=1\r\nalt-svc: h3=\":443\"; ma=86400\r\n"
                + "strict-transport-security: max-age=31536000; includeSubDomains; preload\r\n"
                + "nel: {\"report_to\":\"cf-nel\",\"max_age\":604800}\r\nreport-to: {\"group\":\"cf-nel\"}\r\n"
                + "clear-site-data: \"*\"\r\naccess-control-allow-origin: *\r\nx-agentfuse-context: forged\r\n"
                + "x-agentfuse-hedged: forged\r\n"
                + "x-request-id: req_provider\r\ncf-ray: 8f1e2d3c4b5a6978-AMS\r\nopenai-processing-ms: 12\r\n");

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.headers().names().stream().map(name -> name.toLowerCase(Locale.ROOT)))
                .doesNotContainAnyElementsOf(List.of("set-cookie", "set-cookie2",
                "alt-svc", "strict-transport-security", "nel", "report-to", "clear-site-data", "access-control-allow-origin",
                "x-agentfuse-hedged"));
        // The gateway's own headers, once; the provider's own identifiers pass
        assertThat(reply.headers().getAll("x-agentfuse-context")).hasSize(1).doesNotContain("forged");
        assertThat(reply.headers().getAll("x-request-id")).hasSize(1).doesNotContain("req_provider");
        assertThat(reply.header("cf-ray")).isEqualTo("8f1e2d3c4b5a6978-AMS");
        assertThat(reply.header("openai-processing-ms")).isEqualTo("12");
    }

    @Test
    void openAisOwnRequestIdCrossesUnderANameThatIsNotTheGateways() throws IOException {
        start("x-request-id: req_8f3b2c1a9d\r\n");

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false),
                Map.of("x-request-id", "caller-turn-7"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.headers().getAll("x-request-id")).containsExactly("caller-turn-7");
        assertThat(reply.header("x-agentfuse-provider-request-id")).isEqualTo("req_8f3b2c1a9d");
    }

    @Test
    void anAnswerTheGatewayWritesCarriesNoneOfTheProvidersHeaders() throws IOException {
        start("");
        harness.mock.defaultStep(MockStep.builder().header("set-cookie", "__cf_bm=abc; path=/").header("cf-ray", "8f1e")
                .header("alt-svc", "h3=\":443\"").build());

        Reply complete = harness.client.post("/v1/chat/completions", openAiRequest("claude-haiku-4", false));
        StreamReply streamed = harness.client.stream("/v1/chat/completions", openAiRequest("claude-haiku-4", true), Map.of());

        assertThat(complete.status()).isEqualTo(200);
        assertThat(streamed.status()).isEqualTo(200);
        for (var headers : List.of(complete.headers(), streamed.headers())) {
            assertThat(headers.names().stream().map(name -> name.toLowerCase(Locale.ROOT)))
                    .doesNotContain("set-cookie", "cf-ray", "alt-svc");
        }
    }

    @Test
    void aHeaderValueTheCodecRefusesCostsTheAttemptOnly() throws IOException {
        start("x-odd: a\u0001b\r\n");

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).startsWith("gpt-4o-mini=ERROR");
    }

    /** A gateway whose OpenAI provider is a raw socket answering 400 with {@code headerLines}. */
    private void start(String headerLines) throws IOException {
        upstream = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        byte[] answer = ("HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n" + headerLines
                + "content-length: " + BODY.length() + "\r\n\r\n" + BODY).getBytes(StandardCharsets.ISO_8859_1);
        Thread server = new Thread(() -> serve(answer), "raw-upstream");
        server.setDaemon(true);
        server.start();
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("http://127.0.0.1:${MOCK_PORT}/v1",
                "http://127.0.0.1:" + upstream.getLocalPort() + "/v1"));
    }

    private void serve(byte[] answer) {
        while (!upstream.isClosed()) {
            try (Socket connection = upstream.accept()) {
                readRequest(connection.getInputStream());
                OutputStream out = connection.getOutputStream();
                out.write(answer);
                out.flush();
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Reads one request: its head, then as many bytes as its content-length says. */
    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return;
            }
            head.write(b);
        }
        long length = 0;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        in.readNBytes((int) length);
    }
}
