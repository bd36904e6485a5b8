package io.agentfuse.cli.demo;

import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.json.JsonObject;

/**
 * The second seed's worked example, through the MCP proxy: an MCP server in front of a database
 * starts answering HTTP 500. The 1st and 2nd failures are retried, the 3rd trips the breaker
 * {@code tool:database/query}; calls then fail fast without reaching the server (the seed's
 * "database temporarily unavailable"); five minutes later one probe goes through; a failed probe
 * keeps the breaker open five more minutes, a successful one closes it.
 */
final class McpScenario implements Scenario {

    private static final String PATH = "/mcp/database";
    private static final String TOOL = "query";
    private static final String BREAKER = "tool:database/" + TOOL;

    private int nextId = 1;

    /** The {@code mcpServers:} section of the demo: the seed's server, its times divided by {@code speed}. */
    static String yaml(String url, double speed) {
        return """
                mcpServers:
                  database:
                    url: "%s"
                    timeout: 30s
                    retries: 2
                    circuitBreaker: { failureThreshold: 3, resetTimeout: %s, halfOpenRequests: 1 }
                """.formatted(url, DemoConfig.duration(300_000, speed));
    }

    @Override
    public String name() {
        return "mcp";
    }

    @Override
    public String title() {
        return "MCP server answers 500 → retried → trips on the 3rd → fast fail → probe after 5 min → reopens, then closes";
    }

    @Override
    public ScenarioResult play(DemoStage stage, Timeline timeline, double speed) throws Exception {
        var expect = new ScenarioResult.Expectations(timeline);
        var mcp = stage.mcp();
        mcp.reset();
        mcp.tools(McpMockTool.of(TOOL, "Runs a read-only SQL query on the orders database").idempotent(true));
        Reply init = stage.mcpPost(PATH, rpc("initialize", new JsonObject().put("protocolVersion", "2025-11-25")
                .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "demo-agent")
                        .put("version", "1"))), null);
        String session = init.header("mcp-session-id");
        stage.mcpPost(PATH, rpc("tools/list", new JsonObject()), session);
        timeline.agent("connected to MCP server 'database' through the proxy (session " + session.substring(0, 8)
                + "…); " + TOOL + " is marked idempotent, so it may be retried");

        mcp.script(TOOL, McpToolStep.httpStatus(500, 3));
        timeline.agent("calls " + TOOL + " (the database behind the server is down: HTTP 500)");
        Reply first = call(stage, session);
        JsonObject tripped = stage.breaker(BREAKER);
        timeline.guard("retry " + TOOL, "attempts 1 and 2 → HTTP 500, retried; attempt 3 → HTTP 500");
        timeline.guard("breaker " + BREAKER, "3rd failure in a row → " + tripped.getString("state"));
        expect.expect(mcp.calls(TOOL) == 3, "three attempts reach the server, got " + mcp.calls(TOOL));
        expect.expect(first.status() == 500, "the server's last answer is relayed, got " + first.status());
        expect.expect("OPEN".equals(tripped.getString("state")), "the breaker trips on the 3rd failure");

        timeline.agent("calls " + TOOL + " again");
        Reply fastFail = call(stage, session);
        boolean notCalled = mcp.calls(TOOL) == 3;
        timeline.good("breaker " + BREAKER, "answered at once, the server was " + (notCalled ? "not called" : "called")
                + ": \"" + text(fastFail) + "\" (the seed's \"database temporarily unavailable\")");
        expect.expect(notCalled, "an open tool breaker does not reach the server");
        expect.expect(text(fastFail).startsWith("CIRCUIT_OPEN: " + TOOL + " is unavailable"), "the CIRCUIT_OPEN result");

        mcp.script(TOOL, McpToolStep.httpStatus(500, 1));
        long waitMillis = Math.round(300_000 / speed) + 50;
        timeline.agent("waits " + timeline.seed(waitMillis) + "; the database is still down");
        Thread.sleep(waitMillis);
        call(stage, session);
        JsonObject reopened = stage.breaker(BREAKER);
        timeline.guard("breaker " + BREAKER, "half-open: one probe let through → HTTP 500 → " + reopened.getString("state")
                + " for 5 more minutes");
        expect.expect(mcp.calls(TOOL) == 4, "exactly one probe reaches the server");
        expect.expect("OPEN".equals(reopened.getString("state")), "a failed probe reopens the breaker");

        timeline.agent("waits " + timeline.seed(waitMillis) + "; the database is back");
        Thread.sleep(waitMillis);
        Reply probe = call(stage, session);
        JsonObject healed = stage.breaker(BREAKER);
        timeline.good("breaker " + BREAKER, "half-open probe answered \"" + text(probe) + "\" → " + healed.getString("state"));
        expect.expect("CLOSED".equals(healed.getString("state")), "a successful probe closes the breaker");
        JsonObject server = stage.breaker("mcp:database");
        timeline.note("the server's own breaker mcp:database stayed " + server.getString("state")
                + ": one failing tool does not take its siblings down");
        return expect.result(name(), "3 attempts, tripped on the 3rd, fast fail, probe reopened, probe closed");
    }

    private Reply call(DemoStage stage, String session) throws Exception {
        return stage.mcpPost(PATH, rpc("tools/call", new JsonObject().put("name", TOOL)
                .put("arguments", new JsonObject().put("sql", "select count(*) from orders"))), session);
    }

    private JsonObject rpc(String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", nextId++).put("method", method).put("params", params);
    }

    private static String text(Reply reply) {
        JsonObject result = reply.body().getJsonObject("result");
        if (result == null || result.getJsonArray("content") == null || result.getJsonArray("content").isEmpty()) {
            return "HTTP " + reply.status();
        }
        return result.getJsonArray("content").getJsonObject(0).getString("text", "");
    }
}
