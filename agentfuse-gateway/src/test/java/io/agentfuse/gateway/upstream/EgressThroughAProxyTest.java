package io.agentfuse.gateway.upstream;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.Tinyproxy;
import io.agentfuse.gateway.testing.TrustedCertificate;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.mock.mcp.MockMcpServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SelfSignedCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream calls through a real forward proxy (tinyproxy, in a process of its own): a gateway
 * configured with {@code server.egressProxy} reaches its provider and its MCP server through it (the
 * proxy logs each request and adds its {@code Via} header), a host {@code NO_PROXY} names directly,
 * and an {@code https} provider through a {@code CONNECT} tunnel.
 */
class EgressThroughAProxyTest {

    private static final String CONFIG = """
            server: { port: 0, egressProxy: "${PROXY_URL}" }
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai" }
            models:
              gpt-4o-mini: { provider: openai }
            mcpServers:
              db: { url: "${MCP_URL}", timeout: 5s }
            """;

    private final Tinyproxy proxy = Tinyproxy.start();
    private Vertx vertx;
    private MockProvider provider;
    private MockMcpServer mcp;
    private GatewayServer gateway;

    @BeforeEach
    void start() {
        vertx = GatewayVertx.create();
        provider = Await.result(MockProvider.start(vertx, 0));
        mcp = Await.result(MockMcpServer.start(vertx, 0));
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            Await.result(gateway.close());
        }
        Await.result(vertx.close());
        proxy.close();
    }

    @Test
    void theGatewaysProviderAndMcpCallsGoThroughTheEgressProxy() {
        gateway = gateway(Map.of());
        GatewayClient client = new GatewayClient(vertx, gateway.port());

        assertThat(client.post("/v1/chat/completions", chat()).status()).isEqualTo(200);
        assertThat(client.post("/mcp/db", initialize()).status()).isEqualTo(200);

        assertThat(provider.requests()).singleElement().satisfies(EgressThroughAProxyTest::cameThroughTheProxy);
        assertThat(mcp.requests()).isNotEmpty().allSatisfy(EgressThroughAProxyTest::cameThroughTheProxy);
        assertThat(proxy.requests()).anyMatch(line -> line.startsWith("POST http://127.0.0.1:" + provider.port() + "/v1/chat/completions"))
                .anyMatch(line -> line.startsWith("POST " + mcp.url()));
    }

    @Test
    void aHostNoProxyNamesIsReachedDirectly() {
        gateway = gateway(Map.of("NO_PROXY", "localhost, 127.0.0.1"));
        GatewayClient client = new GatewayClient(vertx, gateway.port());

        assertThat(client.post("/v1/chat/completions", chat()).status()).isEqualTo(200);
        assertThat(client.post("/mcp/db", initialize()).status()).isEqualTo(200);

        assertThat(provider.requests()).singleElement().satisfies(request -> assertThat(request.header("via")).isEmpty());
        assertThat(mcp.requests()).allSatisfy(request -> assertThat(request.header("via")).isEmpty());
        assertThat(proxy.requests()).isEmpty();
    }

    @Test
    void anHttpsProviderIsReachedThroughAConnectTunnel() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.create("localhost");
        HttpServer tls = Await.result(vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(certificate.keyCertOptions()))
                .requestHandler(request -> request.body().onSuccess(ignored -> request.response()
                        .putHeader("content-type", "application/json").end(answer())))
                .listen(0, "127.0.0.1"));
        UpstreamClient client = new UpstreamClient(vertx, UpstreamClientOptions.defaults().withEgress(
                new ServerConfig.Egress(null, URI.create(proxy.url()), List.of())));
        ProviderEndpoint secure = new ProviderEndpoint("secure", Dialects.OPENAI, "https://localhost:" + tls.actualPort() + "/v1", "k");

        UpstreamResponse answer = TrustedCertificate.whileTrusted(certificate,
                () -> Await.result(client.send(UpstreamRequest.of(secure, chat()), Duration.ofSeconds(10))));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(proxy.requests()).anyMatch(line -> line.startsWith("CONNECT localhost:" + tls.actualPort()));
        Await.result(client.close());
    }

    private GatewayServer gateway(Map<String, String> extraEnvironment) {
        Map<String, String> environment = new HashMap<>(extraEnvironment);
        environment.put("PROXY_URL", proxy.url());
        environment.put("MOCK_PORT", Integer.toString(provider.port()));
        environment.put("MCP_URL", mcp.url());
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "egress.yaml", environment);
        return Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
    }

    private static void cameThroughTheProxy(RecordedRequest request) {
        assertThat(request.header("via")).hasValueSatisfying(via -> assertThat(via).contains("tinyproxy"));
    }

    private static JsonObject chat() {
        return new JsonObject().put("model", "gpt-4o-mini")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    private static JsonObject initialize() {
        return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
                .put("params", new JsonObject().put("protocolVersion", "2025-11-25")
                        .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "t").put("version", "1")));
    }

    private static String answer() {
        return "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";
    }
}
