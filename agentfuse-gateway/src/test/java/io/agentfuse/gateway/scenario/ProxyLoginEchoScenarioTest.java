package io.agentfuse.gateway.scenario;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.EchoingProxy;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.mcp.MockMcpServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The egress proxy's login ({@code HTTPS_PROXY}/{@code HTTP_PROXY} with {@code user:password@}), which
 * the gateway sends as {@code Proxy-Authorization: Basic}, is one of its secrets (docs/design.md §12):
 * a proxy that echoes the header in its 407 or 502, or a provider behind a proxy that passed it on,
 * hands a caller neither the password nor the base64 credential — not in a relayed error, not in the
 * gateway's own error after its retries, not in an MCP server's answer, not in a refused
 * {@code CONNECT} — and no log line (every logger at DEBUG) holds either. A proxy's 407 itself is told
 * as the proxy's refusal of the gateway's login, not relayed ({@link ProviderCallThroughProxyLoginScenarioTest}).
 */
class ProxyLoginEchoScenarioTest {

    private static final String USER = "agent-user";
    private static final String PASSWORD = "Pr0xySecret-4f9a1c";
    private static final String BASIC = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    private static final List<String> SECRETS = List.of(PASSWORD, BASIC);
    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
              secure: { type: openai, baseUrl: "https://127.0.0.1:${CLOSED_PORT}/v1", apiKey: "sk-oai-configured" }
            retry: { maxAttempts: 2, initialDelay: 10ms, maxDelay: 20ms }
            models:
              gpt-4o-mini: { provider: openai }
              gpt-secure: { provider: secure, upstreamModel: gpt-4o-mini }
            mcpServers:
              db: { url: "${MCP_URL}", timeout: 5s }
            """;

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private Level rootLevel;
    private Vertx vertx;
    private MockProvider provider;
    private MockMcpServer mcp;
    private EchoingProxy proxy;
    private GatewayServer gateway;
    private GatewayClient client;

    @BeforeEach
    void start() {
        rootLevel = root.getLevel();
        root.setLevel(Level.DEBUG);
        lines.start();
        root.addAppender(lines);
        vertx = GatewayVertx.create();
        provider = Await.result(MockProvider.start(vertx, 0));
        mcp = Await.result(MockMcpServer.start(vertx, 0));
    }

    @AfterEach
    void stop() {
        try {
            if (gateway != null) {
                Await.result(gateway.close());
            }
            Await.result(vertx.close());
            if (proxy != null) {
                proxy.close();
            }
        } finally {
            root.detachAppender(lines);
            root.setLevel(rootLevel);
        }
    }

    @Test
    void aProxyThatRefusesAndEchoesTheLoginHandsTheCallerNoPartOfIt() throws Exception {
        startThrough(EchoingProxy.Mode.REFUSE);

        Reply relayed = client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
        Reply tunnel = client.post("/v1/chat/completions", openAiRequest("gpt-secure", false));
        Reply mcpAnswer = client.post("/mcp/db", initialize());

        assertThat(proxy.requests()).anyMatch(line -> line.startsWith("POST http://127.0.0.1:" + provider.port())
                && line.endsWith("\tBasic " + BASIC)).anyMatch(line -> line.startsWith("CONNECT ")
                && line.endsWith("\tBasic " + BASIC)).anyMatch(line -> line.startsWith("POST " + mcp.url()));
        // The proxy's 407 is the gateway's configuration, told as the proxy's refusal, never relayed (nor its page).
        assertThat(relayed.status()).as(relayed.body()).isEqualTo(502);
        assertThat(relayed.body()).contains("upstream_auth_failed", "egress proxy http://***@127.0.0.1:",
                "refused the gateway's login (HTTP 407)");
        assertThat(tunnel.status()).isGreaterThanOrEqualTo(500);
        assertThat(mcpAnswer.status()).as(mcpAnswer.body()).isEqualTo(502);
        assertThat(mcpAnswer.body()).contains("refused the gateway's login (HTTP 407)");
        for (Reply reply : List.of(relayed, tunnel, mcpAnswer)) {
            holdsNoSecret(reply);
        }
        noLogLineHoldsASecret();
    }

    /**
     * The {@code GET} stream and {@code DELETE} were relayed as they came, the proxy's 407 with them:
     * only an answer read whole was cleared of the login. A proxy's 407 is now never relayed, and any
     * other error answer is read whole, and cleared, for any method.
     */
    @Test
    void aProxyRefusingAnMcpStreamOrTheEndOfASessionEchoesNoLoginToTheCaller() {
        startThrough(EchoingProxy.Mode.REFUSE);

        Reply stream = client.send(HttpMethod.GET, "/mcp/db", Buffer.buffer(), Map.of("accept", "text/event-stream"));
        Reply ended = client.send(HttpMethod.DELETE, "/mcp/db", Buffer.buffer(), Map.of());

        assertThat(proxy.requests()).anyMatch(line -> line.startsWith("GET " + mcp.url()) && line.endsWith("\tBasic " + BASIC))
                .anyMatch(line -> line.startsWith("DELETE " + mcp.url()) && line.endsWith("\tBasic " + BASIC));
        for (Reply reply : List.of(stream, ended)) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(502);
            assertThat(reply.body()).contains("refused the gateway's login (HTTP 407)");
            holdsNoSecret(reply);
        }
        noLogLineHoldsASecret();
    }

    @Test
    void aProxyThatCannotReachTheUpstreamEchoesNoLoginThroughTheGatewaysOwnError() {
        startThrough(EchoingProxy.Mode.BAD_GATEWAY);

        Reply exhausted = client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
        Reply mcpAnswer = client.post("/mcp/db", initialize());

        assertThat(proxy.requests()).filteredOn(line -> line.startsWith("POST http://127.0.0.1:" + provider.port()))
                .hasSize(2).allMatch(line -> line.endsWith("\tBasic " + BASIC));
        assertThat(exhausted.status()).isEqualTo(502);
        assertThat(exhausted.body()).contains("[redacted]");
        assertThat(mcpAnswer.status()).isEqualTo(502);
        holdsNoSecret(exhausted);
        holdsNoSecret(mcpAnswer);
        noLogLineHoldsASecret();
    }

    @Test
    void aProviderBehindAProxyThatPassesTheLoginOnEchoesNoneOfIt() {
        startThrough(EchoingProxy.Mode.FORWARD);
        provider.scriptForModel("gpt-4o-mini", MockStep.builder().status(400).header("x-echo-proxy-authorization", "Basic " + BASIC)
                .body("{\"error\":{\"message\":\"unexpected header Proxy-Authorization: Basic " + BASIC + "\","
                        + "\"type\":\"invalid_request_error\"}}").build());

        Reply reply = client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(provider.requests()).singleElement()
                .satisfies(sent -> assertThat(sent.header("proxy-authorization")).contains("Basic " + BASIC));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).contains("unexpected header Proxy-Authorization: Basic [redacted]");
        assertThat(reply.header("x-echo-proxy-authorization")).isEqualTo("Basic [redacted]");
        holdsNoSecret(reply);
        noLogLineHoldsASecret();
    }

    private void startThrough(EchoingProxy.Mode mode) {
        proxy = EchoingProxy.start(mode);
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort(); // the proxy answers the CONNECT to it: nothing needs to listen there
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "proxy-login.yaml", Map.of(
                "HTTPS_PROXY", proxy.url(USER, PASSWORD), "HTTP_PROXY", proxy.url(USER, PASSWORD),
                "MOCK_PORT", Integer.toString(provider.port()), "CLOSED_PORT", Integer.toString(closed), "MCP_URL", mcp.url()));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        client = new GatewayClient(vertx, gateway.port());
    }

    private static void holdsNoSecret(Reply reply) {
        for (String secret : SECRETS) {
            assertThat(reply.body()).doesNotContain(secret);
            reply.headers().forEach(header -> assertThat(header.getValue()).doesNotContain(secret));
        }
    }

    private void noLogLineHoldsASecret() {
        for (ILoggingEvent line : List.copyOf(lines.list)) {
            String text = line.getFormattedMessage()
                    + (line.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(line.getThrowableProxy()));
            for (String secret : SECRETS) {
                assertThat(text).as("a log line of %s", line.getLoggerName()).doesNotContain(secret);
            }
        }
    }

    private static JsonObject initialize() {
        return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
                .put("params", new JsonObject().put("protocolVersion", "2025-11-25")
                        .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "t").put("version", "1")));
    }
}
