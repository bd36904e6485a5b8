package io.agentfuse.gateway.scenario;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An upstream 4xx passes through with the provider's headers — as the provider wrote them, byte for
 * byte, from a raw socket: header values no HTTP library of ours would write. A value the HTTP
 * codec refuses costs its attempt only, and the chain goes on.
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
