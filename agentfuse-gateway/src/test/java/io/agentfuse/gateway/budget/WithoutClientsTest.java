package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Without {@code clients:} any caller is served, the tenant is its header, and a key budget counts nothing. */
class WithoutClientsTest {

    private final GatewayHarness gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
            budgets:
              per-key: { scope: key, tokens: 1 }
              per-tenant: { scope: tenant, tokens: 1000000 }
            """);

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void aKeyBudgetCountsNothingAndTheTenantIsTheHeader() {
        Map<String, String> caller = Map.of("authorization", "Bearer anything", "x-agentfuse-tenant", "team-z");

        Reply first = gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), caller);
        Reply second = gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), caller);

        assertThat(first.status()).isEqualTo(200);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.headers().getAll("x-agentfuse-budget")).singleElement()
                .satisfies(value -> assertThat(value).startsWith("per-tenant; scope=tenant;"));
    }
}
