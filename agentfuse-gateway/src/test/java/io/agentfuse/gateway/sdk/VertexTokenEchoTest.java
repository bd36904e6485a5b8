package io.agentfuse.gateway.sdk;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Vertex AI access token is the gateway's credential as much as an API key is, though the gateway
 * mints it from a service account: a provider's error that echoes it, in its body or its headers,
 * reaches the caller with {@code [redacted]} in its place, be it the token in use or one a refresh
 * replaced while a call was still in flight with it.
 */
class VertexTokenEchoTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              vertex:
                type: vertex
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                project: agentfuse-test
                credentials: ${VERTEX_CREDENTIALS}
            retry: { maxAttempts: 1 }
            models:
              gemini-on-vertex: { provider: vertex, upstreamModel: gemini-2.5-pro }
            """;
    private static final String MODEL = "gemini-2.5-pro";

    @TempDir
    Path dir;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG, mock -> Map.of("VERTEX_CREDENTIALS",
                CloudProviderChainSdkTest.serviceAccountFile(mock, dir).toString()));
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {400, 503})
    void theTokenInUseIsNeverQuotedToTheCallerThoughVertexEchoesIt(int status) {
        assertThat(call().status()).isEqualTo(200);
        String token = lastTokenSent();

        Reply reply = callEchoing(status, token);

        assertThat(reply.status()).isIn(400, 502);
        assertThat(reply.body()).doesNotContain(token).contains("[redacted]");
        assertThat(reply.headers().entries()).noneMatch(header -> header.getValue().contains(token));
        if (status == 400) {
            assertThat(reply.header("x-echo-authorization")).isEqualTo("Bearer [redacted]");
        }
    }

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {400, 503})
    void aTokenARefreshReplacedIsNeverQuotedEither(int status) {
        call();
        String replaced = lastTokenSent();
        harness.mock.expireVertexTokens();
        call(); // refused: the token is dropped
        assertThat(call().status()).isEqualTo(200);
        assertThat(lastTokenSent()).isNotEqualTo(replaced);

        Reply reply = callEchoing(status, replaced);

        assertThat(reply.body()).doesNotContain(replaced).contains("[redacted]");
        assertThat(reply.headers().entries()).noneMatch(header -> header.getValue().contains(replaced));
    }

    private Reply call() {
        return harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));
    }

    /** A call that Vertex answers with {@code status}, echoing {@code token} as a broken proxy in front of it would. */
    private Reply callEchoing(int status, String token) {
        harness.mock.scriptForModel(MODEL, MockStep.builder().status(status).header("x-echo-authorization", "Bearer " + token)
                .body("{\"error\":{\"code\":" + status + ",\"message\":\"request had authorization: Bearer " + token
                        + "\",\"status\":\"" + (status == 400 ? "INVALID_ARGUMENT" : "UNAVAILABLE") + "\"}}").build());
        return call();
    }

    private String lastTokenSent() {
        List<RecordedRequest> calls = harness.mock.requestsFor(MODEL);
        String authorization = calls.get(calls.size() - 1).header("authorization").orElseThrow();
        assertThat(authorization).startsWith("Bearer ");
        return authorization.substring("Bearer ".length());
    }
}
