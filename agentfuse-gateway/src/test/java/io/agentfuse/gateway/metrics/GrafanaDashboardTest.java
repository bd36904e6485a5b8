package io.agentfuse.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.mcp.MockMcpServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/grafana-dashboard.json} charts only what {@code /metrics} exports: every metric
 * name its queries use appears in the scrape of a real gateway after ordinary traffic (answers,
 * a provider failing behind a fallback, a breaker tripping, a stream, an MCP tool call).
 */
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Path.of("").toAbsolutePath().getParent().resolve("examples/grafana-dashboard.json");
    /** What is not a metric name in a query: label lists of aggregations and matchings, label matchers, strings. */
    private static final Pattern NOT_NAMES = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)|\\{[^}]*}|\"[^\"]*\"");
    private static final Pattern NAME = Pattern.compile("\\b(?:agentfuse|gen_ai)_[a-z0-9_]+\\b");

    @Test
    void everyMetricTheDashboardQueriesIsExportedAfterTraffic() throws IOException {
        Set<String> queried = metricNames(new JsonObject(Files.readString(DASHBOARD)));
        assertThat(queried).as("the dashboard's queries").hasSizeGreaterThan(15);

        String scrape = scrapeAfterTraffic();

        List<String> missing = new ArrayList<>();
        for (String name : queried) {
            if (!Pattern.compile("(?m)^" + name + "[{ ]").matcher(scrape).find()) {
                missing.add(name);
            }
        }
        assertThat(missing).as("metrics the dashboard queries but /metrics does not export").isEmpty();
    }

    @Test
    void theDashboardIsImportableGrafanaJson() throws IOException {
        JsonObject dashboard = new JsonObject(Files.readString(DASHBOARD));

        assertThat(dashboard.getString("uid")).isEqualTo("agentfuse-gateway");
        assertThat(dashboard.getJsonArray("panels")).isNotEmpty().allSatisfy(panel -> {
            JsonObject json = (JsonObject) panel;
            assertThat(json.getInteger("id")).isNotNull();
            assertThat(json.getJsonObject("gridPos")).isNotNull();
        });
        assertThat(dashboard.getJsonObject("templating").getJsonArray("list").getJsonObject(0).getString("type"))
                .isEqualTo("datasource");
    }

    private static String scrapeAfterTraffic() {
        Vertx vertx = GatewayVertx.create();
        MockMcpServer mcp = Await.result(MockMcpServer.start(vertx, 0));
        try (GatewayHarness harness = GatewayHarness.start(vertx, GatewayHarness.CONFIG + """
                mcpServers:
                  db: { url: "%s", timeout: 5s }
                """.formatted(mcp.url()), GatewayOptions.builder().port(0).build())) {
            harness.client.post("/v1/messages", GatewayHarness.anthropicRequest("claude-haiku-4", false));
            harness.client.stream("/v1/messages", GatewayHarness.anthropicRequest("claude-haiku-4", true), Map.of());
            harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).times(3).build());
            for (int i = 0; i < 4; i++) {
                harness.client.post("/v1/messages", GatewayHarness.anthropicRequest("claude-sonnet-4", false));
            }
            harness.client.post("/mcp/db", new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
                    .put("params", new JsonObject().put("name", "query").put("arguments", new JsonObject())),
                    Map.of("accept", "application/json, text/event-stream"));
            return harness.metricsText();
        }
    }

    /** The metric names in every query of {@code dashboard}: panel targets, variables, annotations. */
    static Set<String> metricNames(JsonObject dashboard) {
        Set<String> names = new TreeSet<>();
        collect(dashboard, names);
        return names;
    }

    private static void collect(Object node, Set<String> names) {
        if (node instanceof JsonObject object) {
            for (String key : object.fieldNames()) {
                Object value = object.getValue(key);
                if ((key.equals("expr") || key.equals("query") || key.equals("definition")) && value instanceof String query) {
                    Matcher name = NAME.matcher(NOT_NAMES.matcher(query).replaceAll(" "));
                    while (name.find()) {
                        names.add(name.group());
                    }
                } else {
                    collect(value, names);
                }
            }
        } else if (node instanceof JsonArray array) {
            array.forEach(item -> collect(item, names));
        }
    }
}
