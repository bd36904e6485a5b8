package io.agentfuse.gateway.admin;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code /admin/breakers}: reading without a token, operating only with the right one. */
class AdminApiTest {

    private static final Map<String, String> TOKEN = Map.of("authorization", "Bearer " + GatewayHarness.ADMIN_TOKEN);

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private Reply operate(String path, Map<String, String> headers) {
        return harness.client.send(HttpMethod.POST, path, Buffer.buffer(), headers);
    }

    @Test
    void listsEveryModelBreakerWithStateReasonOpenUntilAndCounts() {
        harness = GatewayHarness.start();

        JsonArray breakers = harness.client.get("/admin/breakers").json().getJsonArray("breakers");

        assertThat(breakers).hasSize(3);
        JsonObject sonnet = breakers.stream().map(JsonObject.class::cast)
                .filter(breaker -> breaker.getString("name").equals("model:claude-sonnet-4")).findFirst().orElseThrow();
        assertThat(sonnet.fieldNames()).containsExactlyInAnyOrder("name", "state", "reason", "openUntil", "counts");
        assertThat(sonnet.getString("state")).isEqualTo("CLOSED");
        assertThat(sonnet.getValue("openUntil")).isNull();
        assertThat(sonnet.getJsonObject("counts").getLong("consecutive5xx")).isZero();
    }

    @Test
    void aBreakerOnlyTheUserCanResetShowsNoOpenUntilEvenPastItsResetTimeout() {
        ManualClock clock = new ManualClock();
        harness = GatewayHarness.start(GatewayHarness.CONFIG, GatewayOptions.builder().port(0).clock(clock).build());
        CircuitBreaker userLed = harness.gateway.runtime().registry().replace("permission:shell", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(5)).autoHalfOpen(false).build());
        userLed.open("3 denials in a row");
        clock.advance(Duration.ofMinutes(10));

        JsonObject shown = harness.client.get("/admin/breakers/permission:shell").json();

        assertThat(shown.getString("state")).isEqualTo("OPEN");
        assertThat(shown.containsKey("openUntil")).isTrue();
        assertThat(shown.getValue("openUntil")).as("no stale instant: only the user reopens it").isNull();
    }

    @Test
    void showsOneBreakerByName() {
        harness = GatewayHarness.start();
        harness.breaker("claude-haiku-4").forceOpen("maintenance");

        Reply reply = harness.client.get("/admin/breakers/model:claude-haiku-4");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getString("state")).isEqualTo("FORCED_OPEN");
        assertThat(reply.json().getString("reason")).contains("maintenance");
    }

    @Test
    void findsAToolBreakerWhoseNameHoldsASlashEncodedOrNot() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG + """
                mcpServers:
                  search: { url: "http://127.0.0.1:9/mcp" }
                tools:
                  search/web_search: { timeout: 5s }
                """);

        Reply plain = harness.client.get("/admin/breakers/tool:search/web_search");
        Reply encoded = harness.client.get("/admin/breakers/tool%3Asearch%2Fweb_search");
        Reply opened = operate("/admin/breakers/tool:search/web_search/open", TOKEN);

        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.json().getString("name")).isEqualTo("tool:search/web_search");
        assertThat(encoded.json().getString("name")).isEqualTo("tool:search/web_search");
        assertThat(opened.json().getString("state")).isEqualTo("FORCED_OPEN");
    }

    @Test
    void anUnknownBreakerIs404Json() {
        harness = GatewayHarness.start();

        Reply reply = harness.client.get("/admin/breakers/model:nope");

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("not_found");
    }

    @Test
    void anOperationWithoutATokenIs401() {
        harness = GatewayHarness.start();

        Reply reply = operate("/admin/breakers/model:claude-sonnet-4/open", Map.of());

        assertThat(reply.status()).isEqualTo(401);
        assertThat(reply.header("www-authenticate")).isEqualTo("Bearer");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("unauthorized");
        assertThat(harness.breaker("claude-sonnet-4").state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anOperationWithAWrongTokenIs403() {
        harness = GatewayHarness.start();

        Reply reply = operate("/admin/breakers/model:claude-sonnet-4/open", Map.of("authorization", "Bearer guess"));

        assertThat(reply.status()).isEqualTo(403);
        assertThat(harness.breaker("claude-sonnet-4").state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void withoutAConfiguredTokenTheAdminApiIsReadOnly() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("adminToken: \"test-admin-token\"", "adminToken: \"\""));

        Reply reply = operate("/admin/breakers/model:claude-sonnet-4/open", TOKEN);

        assertThat(reply.status()).isEqualTo(403);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("read-only");
        assertThat(harness.client.get("/admin/breakers").status()).isEqualTo(200);
    }

    @Test
    void anOperatorOpensABreakerAndTrafficFallsBack() {
        harness = GatewayHarness.start();

        Reply opened = operate("/admin/breakers/model:claude-sonnet-4/open?reason=provider%20incident", TOKEN);
        Reply answer = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(opened.status()).isEqualTo(200);
        assertThat(opened.json().getString("state")).isEqualTo("FORCED_OPEN");
        assertThat(opened.json().getString("reason")).contains("provider incident");
        assertThat(answer.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
    }

    @Test
    void countsTheCallsABreakerRejectedUntilAnOperatorResetsIt() {
        harness = GatewayHarness.start();
        operate("/admin/breakers/model:claude-sonnet-4/open", TOKEN);
        harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));
        harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        JsonObject counts = harness.client.get("/admin/breakers/model:claude-sonnet-4").json().getJsonObject("counts");
        JsonObject afterReset = operate("/admin/breakers/model:claude-sonnet-4/reset", TOKEN).json().getJsonObject("counts");

        assertThat(counts.getLong("rejected")).isEqualTo(2);
        assertThat(afterReset.getLong("rejected")).isZero();
    }

    @Test
    void closeResetAndDisableEachSetTheirState() {
        harness = GatewayHarness.start();
        String breaker = "/admin/breakers/model%3Aclaude-sonnet-4";

        assertThat(operate(breaker + "/disable", TOKEN).json().getString("state")).isEqualTo("DISABLED");
        assertThat(operate(breaker + "/close", TOKEN).json().getString("state")).isEqualTo("CLOSED");
        assertThat(operate(breaker + "/open", TOKEN).json().getString("state")).isEqualTo("FORCED_OPEN");
        assertThat(operate(breaker + "/reset", TOKEN).json().getString("state")).isEqualTo("CLOSED");
    }

    @Test
    void anUnknownOperationIs404() {
        harness = GatewayHarness.start();

        Reply reply = operate("/admin/breakers/model:claude-sonnet-4/explode", TOKEN);

        assertThat(reply.status()).isEqualTo(404);
        assertThat(harness.breaker("claude-sonnet-4").state()).isEqualTo(CircuitState.CLOSED);
    }

    /** Regression: the routes match the normalised path, but the handler cut the path as written, so these were 404s. */
    @Test
    void aBreakerPathWrittenAnotherWayIsTheSameBreaker() {
        harness = GatewayHarness.start();

        for (String spelling : new String[] {"//admin/breakers/model:claude-haiku-4", "/x/../admin/breakers/model:claude-haiku-4",
                "/%61dmin/breakers/model%3Aclaude-haiku-4"}) {
            Reply shown = harness.client.get(spelling);
            assertThat(shown.status()).as(spelling + ": " + shown.body()).isEqualTo(200);
            assertThat(shown.json().getString("name")).isEqualTo("model:claude-haiku-4");
            Reply opened = operate(spelling + "/open", TOKEN);
            assertThat(opened.status()).as(spelling + "/open: " + opened.body()).isEqualTo(200);
            assertThat(operate(spelling + "/close", TOKEN).status()).isEqualTo(200);
        }
        assertThat(operate("//admin/breakers/model:claude-haiku-4/open", Map.of()).status())
                .as("the token is still needed").isEqualTo(401);
    }
}
