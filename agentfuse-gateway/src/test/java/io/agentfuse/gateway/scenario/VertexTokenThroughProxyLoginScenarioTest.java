package io.agentfuse.gateway.scenario;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.EchoingProxy;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.Tinyproxy;
import io.agentfuse.gateway.testing.TlsFront;
import io.agentfuse.gateway.testing.TrustedCertificate;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.Vertx;
import io.vertx.core.net.SelfSignedCertificate;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Vertex AI provider behind a corporate proxy that asks for a login (a real tinyproxy with
 * {@code BasicAuth}): its token requests go where its calls go, with the proxy's login — through a
 * {@code CONNECT} tunnel to an {@code https} token endpoint (a {@link TlsFront} before the mock's), as
 * to Google's, and as a proxied request to a cleartext one — so the token arrives and the call is served. A proxy that refuses the login or cannot be reached fails the call
 * with an error that names the proxy (never its password), not the service account; a service account
 * the token endpoint does not know, behind a proxy that lets it through, still names the credentials.
 *
 * <p>Before, the token request went out on the JDK's {@code HttpURLConnection}, which sends no Basic
 * login through a {@code CONNECT} tunnel by default and cannot answer a proxy's 407 to a streamed
 * {@code POST}: the token never came, and the error blamed the service account.
 */
class VertexTokenThroughProxyLoginScenarioTest {

    private static final String USER = "agent-user";
    private static final String PASSWORD = "Pr0xySecret-7b2e";
    private static final String CONFIG = """
            server: { port: 0, egressProxy: "${PROXY_URL}" }
            providers:
              vertex: { baseUrl: "http://127.0.0.1:${MOCK_PORT}", project: agentfuse-test, credentials: "${VERTEX_FILE}" }
            retry: { maxAttempts: 2, initialDelay: 1ms, maxDelay: 1ms }
            models:
              gemini-on-vertex: { provider: vertex, upstreamModel: gemini-2.5-flash }
            """;

    /** One for every front of the class. */
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.create("localhost");

    @TempDir
    Path dir;

    private final Tinyproxy proxy = Tinyproxy.startWithLogin(USER, PASSWORD);
    private Vertx vertx;
    private MockProvider mock;
    private GatewayServer gateway;

    @BeforeEach
    void start() {
        vertx = GatewayVertx.create();
        mock = Await.result(MockProvider.start(vertx, 0));
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
    void theTokenIsFetchedThroughATunnelOfAProxyThatAsksForALoginAndTheCallIsServed() throws Exception {
        TlsFront front = TlsFront.start(vertx, mock.port(), CERTIFICATE);
        Path account = trustedAccount(front.url() + "/oauth2/token");

        Reply reply = whileTrusted(front, () -> gatewayThrough(proxy.url(USER, PASSWORD), account)
                .post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(proxy.requests()).anyMatch(line -> line.startsWith("CONNECT localhost:" + front.port()));
        assertThat(mock.requests()).filteredOn(request -> request.path().contains("oauth2")).hasSize(1);
        front.close();
    }

    @Test
    void theTokenIsFetchedThroughAProxyThatAsksForALoginForAPlainRequestToo() throws Exception {
        GatewayClient client = gatewayThrough(proxy.url(USER, PASSWORD), trustedAccount(mock.vertexTokenUri()));

        Reply reply = client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(proxy.requests()).anyMatch(line -> line.contains("/oauth2/token"));
        assertThat(mock.requests()).filteredOn(request -> request.path().contains("oauth2")).singleElement()
                .satisfies(token -> assertThat(token.header("via")).hasValueSatisfying(via -> assertThat(via).contains("tinyproxy")));
    }

    @Test
    void aWrongProxyPasswordIsNamedAsTheProxysLoginNotTheServiceAccount() throws Exception {
        TlsFront front = TlsFront.start(vertx, mock.port(), CERTIFICATE);
        Path account = trustedAccount(front.url() + "/oauth2/token");

        Reply reply = whileTrusted(front, () -> gatewayThrough(proxy.url(USER, "not-the-proxy-password"), account)
                .post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false)));

        assertThat(reply.status()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).as(reply.body()).isEqualTo("upstream_auth_failed");
        assertThat(error.getString("message")).contains("provider vertex", "egress proxy http://***@127.0.0.1:" + proxy.port(),
                        "refused the gateway's login", front.url() + "/oauth2/token", "server.egressProxy")
                .doesNotContain("service account", "providers.vertex.credentials", "not-the-proxy-password", USER);
        assertThat(reply.body()).doesNotContain("not-the-proxy-password");
        assertThat(mock.requests()).isEmpty();
        front.close();
    }

    @Test
    void aProxysRefusalOfAPlainTokenRequestIsNamedAsTheProxysAndEchoesNoLogin() throws Exception {
        EchoingProxy refusing = EchoingProxy.start(EchoingProxy.Mode.REFUSE);
        try {
            GatewayClient client = gatewayThrough(refusing.url(USER, PASSWORD), trustedAccount(mock.vertexTokenUri()));

            Reply reply = client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

            assertThat(refusing.requests()).anyMatch(line -> line.startsWith("POST " + mock.vertexTokenUri()));
            assertThat(reply.status()).isEqualTo(502);
            JsonObject error = reply.json().getJsonObject("error");
            assertThat(error.getString("type")).as(reply.body()).isEqualTo("upstream_auth_failed");
            assertThat(error.getString("message")).contains("provider vertex", "egress proxy http://***@127.0.0.1:",
                            "refused the gateway's login (HTTP 407)", mock.vertexTokenUri(), "HTTP_PROXY")
                    .doesNotContain("service account", "providers.vertex.credentials");
            assertThat(reply.body()).doesNotContain(PASSWORD, USER + ":");
        } finally {
            refusing.close();
        }
    }

    @Test
    void aProxyThatCannotBeReachedIsNamedNotTheServiceAccount() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        GatewayClient client = gatewayThrough("http://" + USER + ":" + PASSWORD + "@127.0.0.1:" + closed,
                trustedAccount(mock.vertexTokenUri()));

        Reply reply = client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .contains("provider vertex", "egress proxy http://***@127.0.0.1:" + closed, "could not be reached", "/oauth2/token")
                .doesNotContain("service account", "providers.vertex.credentials", PASSWORD);
        assertThat(mock.requests()).isEmpty();
    }

    @Test
    void aServiceAccountTheTokenEndpointDoesNotKnowStillNamesTheCredentialsBehindTheProxy() throws Exception {
        GatewayClient client = gatewayThrough(proxy.url(USER, PASSWORD), withAnotherKey(mock.newVertexServiceAccount("agentfuse-test").json()));

        Reply reply = client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

        assertThat(reply.status()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).as(reply.body()).isEqualTo("upstream_auth_failed");
        assertThat(error.getString("message")).contains("token endpoint refused the service account", "providers.vertex.credentials")
                .doesNotContain("egress proxy");
        assertThat(mock.requests()).extracting(RecordedRequest::path).singleElement().asString().contains("oauth2");
    }

    /**
     * {@code call} with the JVM trusting {@code front}'s certificate, the gateway started within it, so
     * that nothing it sets up at start holds another trust.
     */
    private static Reply whileTrusted(TlsFront front, java.util.concurrent.Callable<Reply> call) throws Exception {
        return TrustedCertificate.whileTrusted(front.certificate(), call);
    }

    private GatewayClient gatewayThrough(String proxyUrl, Path credentials) {
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "vertex-proxy-login.yaml", Map.of("PROXY_URL", proxyUrl,
                "MOCK_PORT", Integer.toString(mock.port()), "VERTEX_FILE", credentials.toString()));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        return new GatewayClient(vertx, gateway.port());
    }

    /** A service account the token endpoint knows, whose file names {@code tokenUri}. */
    private Path trustedAccount(String tokenUri) throws Exception {
        return Files.writeString(dir.resolve("sa.json"),
                mock.newVertexServiceAccount("agentfuse-test").json().put("token_uri", tokenUri).encode());
    }

    /** The account's file with a private key the token endpoint has never seen. */
    private Path withAnotherKey(JsonObject account) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        return Files.writeString(dir.resolve("foreign.json"), account.copy().put("private_key", pem).encode());
    }
}
