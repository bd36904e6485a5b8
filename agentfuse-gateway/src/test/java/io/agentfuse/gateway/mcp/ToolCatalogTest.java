package io.agentfuse.gateway.mcp;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The name a called tool is guarded and counted under: its own only when the server listed it or the config names it. */
class ToolCatalogTest {

    private final ToolCatalog catalog = new ToolCatalog(CircuitBreakerRegistry.builder().build());
    private final McpServerConfig server = new McpServerConfig("db", URI.create("http://127.0.0.1:9/mcp"),
            ConfigDefaults.MCP_TOOL, Map.of("configured", ConfigDefaults.MCP_TOOL));

    @Test
    void aListedToolHasItsOwnNameAndAnyOtherSharesTheUnlistedOne() {
        catalog.learn("db", list("query"));

        assertThat(catalog.breakerTool(server, "query")).isEqualTo("query");
        assertThat(catalog.breakerTool(server, "invented")).isEqualTo(ToolCatalog.UNLISTED);
        assertThat(catalog.breakerTool(server, "configured")).isEqualTo("configured");
    }

    @Test
    void beforeAnyListTheFirstNamesAreAdmittedAndKeptAfterwards() {
        for (int i = 0; i < ToolCatalog.PROVISIONAL_TOOLS; i++) {
            assertThat(catalog.breakerTool(server, "early-" + i)).isEqualTo("early-" + i);
        }
        assertThat(catalog.breakerTool(server, "one-too-many")).isEqualTo(ToolCatalog.UNLISTED);

        catalog.learn("db", list("query"));

        assertThat(catalog.breakerTool(server, "early-0")).isEqualTo("early-0");
        assertThat(catalog.breakerTool(server, "late")).isEqualTo(ToolCatalog.UNLISTED);
    }

    @Test
    void aNameThatCouldForgeALogLineIsNeverAdmittedEvenIfListed() {
        catalog.learn("db", list("bad\nname"));

        assertThat(catalog.breakerTool(server, "bad\nname")).isEqualTo(ToolCatalog.UNLISTED);
        assertThat(catalog.breakerTool(server, "x".repeat(ToolCatalog.MAX_NAME_LENGTH + 1))).isEqualTo(ToolCatalog.UNLISTED);
    }

    @Test
    void onlyToolsMarkedIdempotentAreIdempotent() {
        JsonObject response = list("query", "insert");
        response.getJsonObject("result").getJsonArray("tools").getJsonObject(0)
                .put("annotations", new JsonObject().put("idempotentHint", true));
        catalog.learn("db", response);

        assertThat(catalog.isIdempotent("db", "query")).isTrue();
        assertThat(catalog.isIdempotent("db", "insert")).isFalse();
        assertThat(catalog.isIdempotent("db", ToolCatalog.UNLISTED)).isFalse();
    }

    private static JsonObject list(String... names) {
        JsonArray tools = new JsonArray();
        for (String name : names) {
            tools.add(new JsonObject().put("name", name).put("description", name));
        }
        return new JsonObject().put("result", new JsonObject().put("tools", tools));
    }
}
