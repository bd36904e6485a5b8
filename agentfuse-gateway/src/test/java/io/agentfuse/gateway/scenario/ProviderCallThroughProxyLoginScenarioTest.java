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
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SelfSignedCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider behind a corporate proxy that refuses the gateway's login (a real tinyproxy with
 * {@code BasicAuth}; for a proxied request a proxy that answers 407, as RFC 9110 has it, where tinyproxy
 * answers 401): the caller is told that the gateway's egress proxy refused the gateway's login
 * (502 {@code upstream_auth_failed}, naming the proxy without its login and the keys that configure
 * it), whether the provider is reached by a proxied request (a cleartext {@code baseUrl}) or through
 * a {@code CONNECT} tunnel ({@code https}), whole or streamed; the call is not retried (a login is
 * configuration) and the provider sees nothing.
 *
 * <p>Before, a proxied request's 407 went back to the caller as the provider's own status 407 — an
 * agent reads that as its own proxy asking it for a login —, and a tunnel's was Netty's text
 * ({@code http, basic, /127.0.0.1:… => …, status: 407 Proxy Authentication Required}), retried as a
 * connection failure.
 */
class ProviderCallThroughProxyLoginScenarioTest {

    private static final String USER = "agent-user";
    private static final String PASSWORD = "Pr0xySecret-9c1d";
    private static final String WRONG = "not-the-proxy-password";
    private static final String CONFIG = """
            server: { port: 0, egressProxy: "${PROXY_URL}" }
            providers:
              openai: { type: openai, baseUrl: "${BASE_URL}/v1", apiKey: "sk-oai" }
            retry: { maxAttempts: 3, initialDelay: 1ms, maxDelay: 1ms }
            models:
              gpt-4o-mini: { provider: openai }
            """;

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
    void theRightLoginIsServedThroughTheProxy() {
        Reply reply = gatewayThrough(proxy.url(USER, PASSWORD), "http://127.0.0.1:" + mock.port())
                .post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(mock.requests()).hasSize(1);
    }

    @Test
    void aProxiedRequestsLoginRefusalIsNamedAsTheEgressProxysNotRelayedAs407() {
        // tinyproxy answers a proxied request with a wrong login 401 (and resets): a proxy that keeps to RFC 9110 answers 407
        try (EchoingProxy refusing = EchoingProxy.start(EchoingProxy.Mode.REFUSE)) {
            GatewayClient client = gatewayThrough(refusing.url(USER, WRONG), "http://127.0.0.1:" + mock.port());

            Reply whole = client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
            Reply streamed = client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", true));

            for (Reply reply : new Reply[] {whole, streamed}) {
                assertLoginRefused(reply, refusing.port(), "(HTTP 407) for a request to http://127.0.0.1:" + mock.port()
                        + "/v1/chat/completions", "HTTP_PROXY");
            }
            assertThat(refusing.requests()).as("not retried").hasSize(2);
        }
        assertThat(mock.requests()).isEmpty();
    }

    @Test
    void aTunnelsLoginRefusalIsNamedAsTheEgressProxysAndNotRetried() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.create("localhost");
        TlsFront front = TlsFront.start(vertx, mock.port(), certificate);

        Reply reply = TrustedCertificate.whileTrusted(certificate, () -> gatewayThrough(proxy.url(USER, WRONG), front.url())
                .post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false)));

        // tinyproxy answers a CONNECT with a wrong login 401, not 407
        assertLoginRefused(reply, proxy.port(), "(HTTP 401) for a request to " + front.url() + "/v1/chat/completions", "HTTPS_PROXY");
        assertThat(proxy.requests()).as("not retried").hasSize(1);
        assertThat(mock.requests()).isEmpty();
        front.close();
    }

    @Test
    void aProxyThatAsksForALoginTheUrlDoesNotHaveSaysSo() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.create("localhost");
        TlsFront front = TlsFront.start(vertx, mock.port(), certificate);

        Reply reply = TrustedCertificate.whileTrusted(certificate, () -> gatewayThrough(proxy.url(), front.url())
                .post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .contains("egress proxy http://127.0.0.1:" + proxy.port(), "asks for a login", "its URL has none", "HTTPS_PROXY");
        front.close();
    }

    private static void assertLoginRefused(Reply reply, int proxyPort, String statusAndUrl, String environmentKey) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).as(reply.body()).isEqualTo("upstream_auth_failed");
        assertThat(error.getString("message")).contains("provider openai", "egress proxy http://***@127.0.0.1:" + proxyPort,
                        "refused the gateway's login " + statusAndUrl, "server.egressProxy", environmentKey)
                .doesNotContain("apiKey", "providers.openai");
        assertThat(reply.body()).doesNotContain(WRONG, USER + ":");
    }

    private GatewayClient gatewayThrough(String proxyUrl, String baseUrl) {
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "provider-proxy-login.yaml",
                Map.of("PROXY_URL", proxyUrl, "BASE_URL", baseUrl));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        return new GatewayClient(vertx, gateway.port());
    }
}
