package io.agentfuse.gateway.upstream;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.Tinyproxy;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cloud providers through a real forward proxy (tinyproxy): a SigV4-signed Bedrock call, complete
 * and streamed (its binary event stream relayed by the proxy), a Gemini call and a Vertex AI call with
 * its bearer token all go through {@code server.egressProxy}, and so does google-auth-library's request
 * for that token; the mocks, which check the signature, the key and the token, accept what the proxy
 * passed on.
 */
class CloudProvidersThroughAProxyTest {

    private static final String CONFIG = """
            server: { port: 0, egressProxy: "${PROXY_URL}" }
            providers:
              bedrock:
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                region: us-east-1
                accessKeyId: "${AWS_KEY}"
                secretAccessKey: "${AWS_SECRET}"
              gemini: { baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "${GEMINI_KEY}" }
              vertex: { baseUrl: "http://127.0.0.1:${MOCK_PORT}", project: agentfuse-test, credentials: "${VERTEX_FILE}" }
            models:
              claude-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0" }
              gemini-2.5-pro: { provider: gemini }
              gemini-on-vertex: { provider: vertex, upstreamModel: gemini-2.5-flash }
            """;

    private final Tinyproxy proxy = Tinyproxy.start();
    private final Vertx vertx = GatewayVertx.create();
    private GatewayServer gateway;

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        if (gateway != null) {
            Await.result(gateway.close());
        }
        Await.result(vertx.close());
        proxy.close();
    }

    @Test
    void signedStreamedAndTokenAuthenticatedCallsGoThroughTheEgressProxy() throws Exception {
        MockProvider mock = Await.result(MockProvider.start(vertx, 0));
        MockCredentials keys = mock.credentials();
        Path file = Files.writeString(dir.resolve("sa.json"), mock.newVertexServiceAccount("agentfuse-test").json().encode());
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "proxy.yaml", Map.of("PROXY_URL", proxy.url(),
                "MOCK_PORT", Integer.toString(mock.port()), "AWS_KEY", keys.awsAccessKeyId(),
                "AWS_SECRET", keys.awsSecretAccessKey(), "GEMINI_KEY", keys.geminiApiKey(), "VERTEX_FILE", file.toString()));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        GatewayClient client = new GatewayClient(vertx, gateway.port());

        assertThat(client.post("/v1/chat/completions", chat("claude-on-bedrock", false)).status()).isEqualTo(200);
        GatewayClient.Reply streamed = client.post("/v1/chat/completions", chat("claude-on-bedrock", true));
        assertThat(streamed.status()).isEqualTo(200);
        assertThat(streamed.body()).contains("\"content\":\"provider.\"", "[DONE]");
        assertThat(client.post("/v1/chat/completions", chat("gemini-2.5-pro", false)).status()).isEqualTo(200);
        assertThat(client.post("/v1/chat/completions", chat("gemini-on-vertex", false)).status()).isEqualTo(200);

        assertThat(mock.requests()).filteredOn(request -> !request.path().contains("oauth2")).hasSize(4);
        assertThat(mock.requests()).filteredOn(request -> request.path().contains("oauth2")).hasSize(1);
        assertThat(mock.requests())
                .allSatisfy(request -> assertThat(request.header("via")).hasValueSatisfying(via -> assertThat(via).contains("tinyproxy")));
        assertThat(proxy.requests()).anyMatch(line -> line.contains("/converse-stream"))
                .anyMatch(line -> line.contains(":generateContent")).anyMatch(line -> line.contains("/oauth2/token"));
    }

    private static JsonObject chat(String model, boolean stream) {
        return new JsonObject().put("model", model).put("stream", stream)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }
}
