package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /mcp} serves {@code db} and {@code search} as one MCP server: merged tools named
 * {@code <server>__<tool>}, calls routed to their server in the caller's own session with it, and
 * one server's failure never costs the other's tools.
 */
class McpAggregateTest {

    private AggregateHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private void startWithTools(String yaml) {
        harness = AggregateHarness.start(yaml);
        harness.mock("db").tools(McpMockTool.of("query", "Runs SQL").idempotent(true));
        harness.mock("search").tools(McpMockTool.of("web", "Searches the web"), McpMockTool.of("news", "Reads news"));
    }

    @Test
    void aSessionListsTheToolsOfEveryServerUnderTheirServersName() {
        startWithTools(AggregateHarness.CONFIG);
        String session = harness.initialize();

        HttpResponse<String> list = harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session);

        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(names(McpHarness.result(list))).containsExactly("db__query", "search__web", "search__news");
        assertThat(McpHarness.result(list).getJsonArray("tools").getJsonObject(0).getJsonObject("annotations")
                .getBoolean("idempotentHint")).isTrue();
    }

    @Test
    void aCallGoesToItsServerAsItsOwnToolWithTheCallersId() {
        startWithTools(AggregateHarness.CONFIG);
        String session = harness.initialize();
        JsonObject call = harness.toolCall("search__web");

        HttpResponse<String> answer = harness.post(call, "Mcp-Session-Id", session);

        assertThat(McpHarness.text(answer)).isEqualTo("ok");
        assertThat(McpHarness.message(answer).getValue("id")).isEqualTo(call.getValue("id"));
        assertThat(harness.mock("search").calls("web")).isEqualTo(1);
        assertThat(harness.mock("db").calls("query")).isZero();
        assertThat(harness.gateway.runtime().registry().find("tool:search/web")).isPresent();
    }

    @Test
    void eachCallersSessionHasItsOwnSessionWithTheServer() {
        startWithTools(AggregateHarness.CONFIG);
        harness.mock("db").versions("2025-11-25"); // a server of sessions
        String first = harness.initialize("Authorization", "Bearer one");
        String second = harness.initialize("Authorization", "Bearer two");

        harness.post(harness.toolCall("db__query"), "Mcp-Session-Id", first, "Authorization", "Bearer one");
        harness.post(harness.toolCall("db__query"), "Mcp-Session-Id", second, "Authorization", "Bearer two");
        HttpResponse<String> stolen = harness.post(harness.toolCall("db__query"), "Mcp-Session-Id", first,
                "Authorization", "Bearer two");

        assertThat(stolen.statusCode()).isEqualTo(404);
        List<String> sessionsOfCalls = harness.mock("db").requests().stream()
                .filter(request -> request.body().contains("\"tools/call\""))
                .map(request -> request.header("mcp-session-id").orElseThrow()).toList();
        assertThat(sessionsOfCalls).hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void aKilledServerLeavesTheListAndTheOtherServersCallsWorkingAndItsToolsAnswerCircuitOpen() {
        startWithTools(AggregateHarness.CONFIG);
        String session = harness.initialize();
        harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session);

        harness.kill("search");

        // the list still has every tool; the dead server's are noted as unavailable
        JsonObject list = McpHarness.result(harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session));
        assertThat(names(list)).containsExactly("db__query", "search__web", "search__news");
        assertThat(list.getJsonArray("tools").getJsonObject(1).getString("description"))
                .startsWith("Searches the web [agentfuse: this tool is failing; MCP server search is unavailable");
        // the other server's calls work
        assertThat(McpHarness.text(harness.post(harness.toolCall("db__query"), "Mcp-Session-Id", session))).isEqualTo("ok");
        // the dead server's tools fail as tool results, and once its breaker is open, with CIRCUIT_OPEN
        for (int i = 0; i < 3; i++) {
            JsonObject failed = McpHarness.result(harness.post(harness.toolCall("search__web"), "Mcp-Session-Id", session));
            assertThat(failed.getBoolean("isError")).isTrue();
        }
        assertThat(harness.gateway.runtime().registry().find("mcp:search").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        HttpResponse<String> open = harness.post(harness.toolCall("search__news"), "Mcp-Session-Id", session);
        assertThat(McpHarness.text(open)).isEqualTo("CIRCUIT_OPEN: search is unavailable, retry after 300 s");
        assertThat(McpHarness.text(harness.post(harness.toolCall("db__query"), "Mcp-Session-Id", session))).isEqualTo("ok");
        JsonObject whileOpen = McpHarness.result(harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session));
        assertThat(names(whileOpen)).containsExactly("db__query", "search__web", "search__news");
        assertThat(whileOpen.getJsonArray("tools").getJsonObject(2).getString("description"))
                .contains("its circuit breaker mcp:search is open, retry after 300 s");
    }

    @Test
    void aToolsBreakerIsItsOwnAndTheSiblingsOfTheSameServerKeepWorking() {
        startWithTools(AggregateHarness.CONFIG);
        String session = harness.initialize();
        harness.mock("search").script("web", McpToolStep.toolError("rate limited", 3));
        for (int i = 0; i < 3; i++) {
            harness.post(harness.toolCall("search__web"), "Mcp-Session-Id", session);
        }

        HttpResponse<String> open = harness.post(harness.toolCall("search__web"), "Mcp-Session-Id", session);

        assertThat(McpHarness.text(open)).isEqualTo("CIRCUIT_OPEN: search__web is unavailable, retry after 300 s");
        assertThat(harness.gateway.runtime().registry().find("tool:search/web").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        assertThat(McpHarness.text(harness.post(harness.toolCall("search__news"), "Mcp-Session-Id", session))).isEqualTo("ok");
    }

    @Test
    void aRequiredServerThatWasNeverReachedFailsInitializeAndAnOptionalOneDoesNot() throws Exception {
        String dead = "http://127.0.0.1:" + freePort() + "/mcp";
        harness = AggregateHarness.start(AggregateHarness.CONFIG, java.util.Map.of("search", dead));
        harness.mock("db").tools(McpMockTool.of("query", "Runs SQL"));

        HttpResponse<String> refused = harness.post(harness.initializeRequest());

        JsonObject error = McpHarness.message(refused).getJsonObject("error");
        assertThat(error.getInteger("code")).isEqualTo(-32000);
        assertThat(error.getString("message")).contains("search").contains("optional");
        assertThat(refused.headers().firstValue("mcp-session-id")).isEmpty();
        harness.close();

        harness = AggregateHarness.start(AggregateHarness.CONFIG.replace("search: { url: \"${SEARCH_URL}\",",
                "search: { url: \"${SEARCH_URL}\", optional: true,"), java.util.Map.of("search", dead));
        harness.mock("db").tools(McpMockTool.of("query", "Runs SQL"));
        String session = harness.initialize();
        JsonObject list = McpHarness.result(harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session));
        assertThat(names(list)).containsExactly("db__query");
    }

    @Test
    void aServerSlowerThanItsListTimeoutDoesNotHoldTheListBack() throws Exception {
        try (SilentServer silent = SilentServer.start()) {
            harness = AggregateHarness.start(AggregateHarness.CONFIG.replace(
                    "search: { url: \"${SEARCH_URL}\", timeout: 5s, listTimeout: 2s",
                    "search: { url: \"${SEARCH_URL}\", timeout: 60s, listTimeout: 300ms, optional: true"),
                    java.util.Map.of("search", silent.url()));
            harness.mock("db").tools(McpMockTool.of("query", "Runs SQL"));
            String session = harness.initialize();

            HttpResponse<String> list = harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session);

            assertThat(names(McpHarness.result(list))).containsExactly("db__query");
            assertThat(silent.connections()).isPositive();
        }
    }

    @Test
    void theStatelessEraListsCallsAndDiscoversTheVersionsEveryServerSpeaks() {
        startWithTools(AggregateHarness.CONFIG);
        harness.mock("search").versions("2025-06-18", "2025-11-25", "2026-07-28");
        harness.mock("db").versions("2025-11-25", "2026-07-28");

        HttpResponse<String> discover = harness.stateless(harness.rpc("server/discover", new JsonObject()));
        HttpResponse<String> list = harness.stateless(harness.rpc("tools/list", new JsonObject()));
        HttpResponse<String> call = harness.stateless(harness.toolCall("db__query"));

        JsonObject discovered = McpHarness.result(discover);
        assertThat(discovered.getJsonArray("supportedVersions")).containsExactly("2025-11-25", "2026-07-28");
        assertThat(discovered.getString("resultType")).isEqualTo("complete");
        assertThat(names(McpHarness.result(list))).containsExactly("db__query", "search__web", "search__news");
        assertThat(McpHarness.text(call)).isEqualTo("ok");
        // servers that speak 2026-07-28 are called statelessly, with the era's headers
        RecordedRequest sent = harness.mock("db").requests().stream()
                .filter(request -> request.body().contains("\"tools/call\"")).findFirst().orElseThrow();
        assertThat(sent.header("mcp-name")).contains("query");
        assertThat(sent.header("mcp-protocol-version")).contains("2026-07-28");
        assertThat(harness.mock("db").sessions()).isEmpty();
    }

    @Test
    void aServerThatSpeaksOnlySessionsIsInitializedAndCalledInItsSession() {
        startWithTools(AggregateHarness.CONFIG);
        harness.mock("db").versions("2025-11-25");

        HttpResponse<String> call = harness.stateless(harness.toolCall("db__query"));
        HttpResponse<String> discover = harness.stateless(harness.rpc("server/discover", new JsonObject()));

        assertThat(McpHarness.text(call)).isEqualTo("ok");
        assertThat(harness.mock("db").sessions()).hasSize(1);
        assertThat(McpHarness.result(discover).getJsonArray("supportedVersions")).containsExactly("2025-11-25");
    }

    @Test
    void aCallPastItsTimeoutIsCancelledOnItsServer() {
        startWithTools(AggregateHarness.CONFIG + "tools:\n  search/web: { timeout: 1s }\n");
        harness.mock("search").script("web", McpToolStep.builder().text("late").delayMs(120_000).build());
        String session = harness.initialize();

        HttpResponse<String> answer = harness.post(harness.toolCall("search__web"), "Mcp-Session-Id", session);

        assertThat(McpHarness.text(answer)).isEqualTo("TIMEOUT: search__web did not answer within 1 s; the call was cancelled");
        RecordedRequest call = harness.mock("search").requests().stream()
                .filter(request -> request.body().contains("\"tools/call\"")).findFirst().orElseThrow();
        Object upstreamId = call.jsonBody().orElseThrow().getValue("id");
        assertThat(harness.mock("search").notifications("notifications/cancelled")).singleElement()
                .satisfies(cancel -> assertThat(cancel.getJsonObject("params").getValue("requestId")).isEqualTo(upstreamId));
    }

    @Test
    void aCallTheCallerCancelsIsCancelledOnItsServer() throws Exception {
        startWithTools(AggregateHarness.CONFIG);
        harness.mock("search").script("web", McpToolStep.builder().text("late").delayMs(120_000).build());
        String session = harness.initialize();
        JsonObject call = harness.toolCall("search__web");
        java.util.concurrent.CompletableFuture<HttpResponse<String>> pending = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> harness.post(call, "Mcp-Session-Id", session));
        io.agentfuse.gateway.testing.Eventually.holds(harness.vertx, () -> harness.mock("search").calls("web") == 1);

        HttpResponse<String> cancel = harness.post(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
                .put("params", new JsonObject().put("requestId", call.getValue("id")).put("reason", "user pressed stop")),
                "Mcp-Session-Id", session);

        assertThat(cancel.statusCode()).isEqualTo(202);
        JsonObject answer = McpHarness.message(pending.get(30, java.util.concurrent.TimeUnit.SECONDS));
        assertThat(answer.getValue("id")).isEqualTo(call.getValue("id"));
        assertThat(answer.getJsonObject("error").getInteger("code")).isEqualTo(-32800);
        Object upstreamId = harness.mock("search").requests().stream()
                .filter(request -> request.body().contains("\"tools/call\"")).findFirst().orElseThrow()
                .jsonBody().orElseThrow().getValue("id");
        io.agentfuse.gateway.testing.Eventually.holds(harness.vertx,
                () -> harness.mock("search").notifications("notifications/cancelled").size() == 1);
        assertThat(harness.mock("search").notifications("notifications/cancelled").get(0).getJsonObject("params")
                .getValue("requestId")).isEqualTo(upstreamId);
    }

    @Test
    void theAggregateOffersNoServerStreamAndEndsSessionsOnDelete() {
        startWithTools(AggregateHarness.CONFIG);
        String session = harness.initialize();
        harness.post(harness.toolCall("db__query"), "Mcp-Session-Id", session);
        URI endpoint = URI.create(harness.gateway.baseUrl() + "/mcp");

        HttpResponse<String> get = harness.send(HttpRequest.newBuilder(endpoint).header("accept", "text/event-stream")
                .header("Mcp-Session-Id", session).GET().build());
        HttpResponse<String> delete = harness.send(HttpRequest.newBuilder(endpoint).header("Mcp-Session-Id", session)
                .DELETE().build());

        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(delete.statusCode()).isEqualTo(200);
        assertThat(harness.post(harness.toolCall("db__query"), "Mcp-Session-Id", session).statusCode()).isEqualTo(404);
        io.agentfuse.gateway.testing.Eventually.holds(harness.vertx, () -> harness.mock("db").sessions().isEmpty());
    }

    @Test
    void withoutAnAggregateTheEndpointIsNotFoundAsAJsonRpcErrorForTheRequest() {
        harness = AggregateHarness.start(AggregateHarness.CONFIG.replace("mcp:\n  aggregate: [db, search]\n", ""));
        JsonObject initialize = harness.initializeRequest();

        HttpResponse<String> answer = harness.post(initialize);

        // As for an unknown server (McpUnknownServerSdkTest): the SDKs hand it to the request, and drop no session
        assertThat(answer.statusCode()).isEqualTo(200);
        JsonObject message = new JsonObject(answer.body());
        assertThat(message.getValue("id")).isEqualTo(initialize.getValue("id"));
        assertThat(message.getJsonObject("error").getString("message")).contains("mcp.aggregate is empty");
        assertThat(message.getJsonObject("error").getJsonObject("data").getString("type")).isEqualTo("not_found");
    }

    private static List<String> names(JsonObject result) {
        JsonArray tools = result.getJsonArray("tools");
        return tools.stream().map(tool -> ((JsonObject) tool).getString("name")).toList();
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
