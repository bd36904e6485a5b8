package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code clients:}: every model and MCP request needs a client's key; the tenant comes from it (docs/design.md §11). */
class ClientKeysScenarioTest {

    private static final String CLIENTS = """
            clients:
              team-a: { key: "sk-team-a-0123456789", tenant: team-a }
              ci-bot: { key: "sk-ci-bot-0123456789", tenant: ci }
            budgets:
              per-tenant: { scope: tenant, tokens: 200 }
              per-key: { scope: key, tokens: 100000 }
            mcpServers:
              search: { url: "http://127.0.0.1:9/mcp" }
            """;

    private GatewayHarness gateway;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + CLIENTS);
        gateway.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).build());
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    private Reply ask(Map<String, String> headers) {
        return gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), headers);
    }

    @Test
    void aRequestWithoutAKeyIsRefusedInItsDialectAndReachesNoProvider() {
        Reply anthropic = ask(Map.of());
        Reply openAi = gateway.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(anthropic.status()).isEqualTo(401);
        assertThat(anthropic.header("x-should-retry")).isEqualTo("false");
        assertThat(anthropic.json().getString("type")).isEqualTo("error");
        assertThat(anthropic.json().getJsonObject("error").getString("type")).isEqualTo("invalid_api_key");
        assertThat(openAi.status()).isEqualTo(401);
        assertThat(openAi.json().getJsonObject("error").getString("code")).isEqualTo("invalid_api_key");
        assertThat(gateway.mock.requests()).isEmpty();
    }

    /** Regression: the key was checked on the path as written, so {@code //v1/models} listed the models to anyone. */
    @ParameterizedTest
    @ValueSource(strings = {"//v1/models", "/%761/models", "/./v1beta/models", "/v1//models"})
    void aModelListAskedForByAPathWrittenAnotherWayNeedsTheKeyToo(String path) {
        Reply reply = gateway.client.get(path);

        assertThat(reply.status()).as(reply.body()).isEqualTo(401);
    }

    @Test
    void anUnknownKeyIsRefusedWithoutSayingAnythingOfTheKeys() {
        Reply reply = ask(Map.of("authorization", "Bearer sk-team-a-0123456780"));

        assertThat(reply.status()).isEqualTo(401);
        assertThat(reply.body()).doesNotContain("sk-team-a").doesNotContain("team-a");
    }

    @Test
    void aKeyIsAcceptedAsABearerTokenOrAsXApiKey() {
        assertThat(ask(Map.of("authorization", "Bearer sk-team-a-0123456789")).status()).isEqualTo(200);
        assertThat(ask(Map.of("x-api-key", "sk-ci-bot-0123456789")).status()).isEqualTo(200);
    }

    @Test
    void theTenantComesFromTheKeyNotFromTheCallersHeader() {
        Map<String, String> teamAClaimingCi = Map.of("x-api-key", "sk-team-a-0123456789", "x-agentfuse-tenant", "ci");
        ask(teamAClaimingCi);
        ask(teamAClaimingCi);

        Reply refused = ask(teamAClaimingCi);
        Reply ci = ask(Map.of("x-api-key", "sk-ci-bot-0123456789"));

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.json().getJsonObject("error").getString("message")).contains("tenant 'team-a'");
        assertThat(ci.status()).isEqualTo(200);
        assertThat(ci.headers().getAll("x-agentfuse-budget")).anyMatch(value -> value.startsWith("per-tenant; scope=tenant; remaining=100;"));
    }

    @Test
    void theKeyScopeCountsPerClient() {
        Reply first = ask(Map.of("x-api-key", "sk-team-a-0123456789"));

        assertThat(first.headers().getAll("x-agentfuse-budget"))
                .anyMatch(value -> value.startsWith("per-key; scope=key; remaining=99900; resets="));
    }

    @Test
    void theModelListAndTheMcpProxyNeedAKeyToo() {
        Reply models = gateway.client.get("/v1/models");
        Reply mcp = gateway.client.post("/mcp/search", new JsonObject().put("jsonrpc", "2.0").put("id", 1)
                .put("method", "tools/list"));
        Reply modelsWithKey = gateway.client.send(HttpMethod.GET, "/v1/models", Buffer.buffer(),
                Map.of("authorization", "Bearer sk-ci-bot-0123456789"));

        assertThat(models.status()).isEqualTo(401);
        assertThat(models.json().getJsonObject("error").getString("type")).isEqualTo("invalid_api_key");
        assertThat(mcp.status()).isEqualTo(401);
        assertThat(mcp.json().getString("jsonrpc")).isEqualTo("2.0");
        assertThat(mcp.json().getJsonObject("error").getJsonObject("data").getString("type")).isEqualTo("invalid_api_key");
        assertThat(modelsWithKey.status()).isEqualTo(200);
    }

    @Test
    void theHealthAndAdminReadsNeedNoClientKey() {
        assertThat(gateway.client.get("/healthz").status()).isEqualTo(200);
        assertThat(gateway.client.get("/admin/budgets").status()).isEqualTo(200);
    }
}
