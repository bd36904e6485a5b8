package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /admin/budgets} and {@code POST /admin/budgets/{name}/{scopeValue}/reset}. */
class BudgetAdminTest {

    private static final Map<String, String> TOKEN = Map.of("authorization", "Bearer " + GatewayHarness.ADMIN_TOKEN);

    private final GatewayHarness gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
            budgets:
              per-session: { scope: session, tokens: 200, window: 1h, onExhausted: { fallback: gpt-4o-mini } }
              dollars: { scope: global, cost: 5 }
            """);

    @AfterEach
    void stop() {
        gateway.close();
    }

    private Reply ask(String session) {
        return gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), Map.of("x-agentfuse-session", session));
    }

    private Reply reset(String path, Map<String, String> headers) {
        return gateway.client.send(HttpMethod.POST, path, Buffer.buffer(), headers);
    }

    @Test
    void theBudgetsAndTheirWindowsInUseAreListed() {
        gateway.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).build());
        ask("s1");
        ask("s1");
        ask("s2");

        JsonObject list = gateway.client.get("/admin/budgets").json();

        JsonObject session = list.getJsonArray("budgets").getJsonObject(0);
        assertThat(session.getString("name")).isEqualTo("per-session");
        assertThat(session.getString("scope")).isEqualTo("session");
        assertThat(session.getLong("tokens")).isEqualTo(200);
        assertThat(session.getString("window")).isEqualTo("1h");
        assertThat(session.getJsonObject("onExhausted").getString("fallback")).isEqualTo("gpt-4o-mini");
        JsonObject s1 = session.getJsonArray("windows").stream().map(JsonObject.class::cast)
                .filter(window -> window.getString("scopeValue").equals("s1")).findFirst().orElseThrow();
        assertThat(s1.getJsonObject("spent").getLong("tokens")).isEqualTo(200);
        assertThat(s1.getJsonObject("reserved").getLong("tokens")).isZero();
        assertThat(s1.getJsonObject("remaining").getLong("tokens")).isZero();
        assertThat(s1.getJsonObject("remaining").getValue("cost")).isNull();
        assertThat(s1.getString("resets")).endsWith(":00:00Z");
        JsonObject dollars = list.getJsonArray("budgets").getJsonObject(1);
        assertThat(dollars.getJsonArray("windows").getJsonObject(0).getString("scopeValue")).isEqualTo("global");
        assertThat(dollars.getJsonArray("windows").getJsonObject(0).getJsonObject("spent").getDouble("cost")).isPositive();
    }

    @Test
    void aResetNeedsTheAdminTokenAndLetsTheSessionSpendAgain() {
        gateway.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(190).build());
        ask("s1");
        assertThat(ask("s1").header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");

        Reply withoutToken = reset("/admin/budgets/per-session/s1/reset", Map.of());
        Reply wrongToken = reset("/admin/budgets/per-session/s1/reset", Map.of("authorization", "Bearer nope"));
        Reply reset = reset("/admin/budgets/per-session/s1/reset", TOKEN);

        assertThat(withoutToken.status()).isEqualTo(401);
        assertThat(wrongToken.status()).isEqualTo(403);
        assertThat(reset.status()).isEqualTo(200);
        assertThat(reset.json().getBoolean("reset")).isTrue();
        assertThat(ask("s1").header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
    }

    @Test
    void anUnknownBudgetOrOperationIsNotFound() {
        assertThat(reset("/admin/budgets/nope/s1/reset", TOKEN).status()).isEqualTo(404);
        assertThat(reset("/admin/budgets/per-session/s1/drop", TOKEN).status()).isEqualTo(404);
    }

    @Test
    void anOperationWithoutBudgetOrScopeValueIsNotFoundWithTheFormToUse() {
        Reply bare = reset("/admin/budgets", TOKEN);

        assertThat(bare.status()).as(bare.body()).isEqualTo(404);
        assertThat(bare.json().getJsonObject("error").getString("message"))
                .contains("POST /admin/budgets/{name}/{scopeValue}/reset");
    }

    /** Regression: the routes match the normalised path, but the handler cut the path as written, so these were 404s. */
    @Test
    void aResetPathWrittenAnotherWayResetsTheSameWindow() {
        gateway.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(190).build());

        for (String spelling : new String[] {"//admin/budgets/per-session/s1/reset", "/admin/./budgets/per-session/s1/reset",
                "/%61dmin/budgets/per-session/s%31/reset"}) {
            ask("s1");
            assertThat(ask("s1").header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");

            Reply reset = reset(spelling, TOKEN);

            assertThat(reset.status()).as(spelling + ": " + reset.body()).isEqualTo(200);
            assertThat(ask("s1").header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        }
    }
}
