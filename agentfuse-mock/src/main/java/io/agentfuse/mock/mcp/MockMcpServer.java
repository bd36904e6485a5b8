package io.agentfuse.mock.mcp;

import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.mock.RequestJournal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A real HTTP server that fakes an MCP server on the streamable-HTTP transport at {@code /mcp},
 * in both spec eras (2025-11-25 sessions with SSE answers, a {@code GET} stream and
 * {@code Last-Event-ID}; 2026-07-28 stateless with {@code Mcp-Method} / {@code Mcp-Name}), scriptable
 * like the model mock, so that the MCP proxy's breakers and retries can be shown and tested.
 *
 * <p>Each {@code tools/call} of a tool takes that tool's next {@link McpToolStep}; once its script
 * is used up, the tool's default step answers (a plain success unless changed). Tools are listed
 * in {@code tools/list} with their annotations ({@link McpMockTool}).
 *
 * <p>Control API (JSON):
 * <ul>
 *   <li>{@code POST /_mcp/tools} — a list of tools ({@code [{"name", "description", "annotations"}]}), replacing the listed ones</li>
 *   <li>{@code POST /_mcp/script} — {@code {"tool": "query", "steps": [...]}}; appends, answers {@code {"pending": n}}</li>
 *   <li>{@code POST /_mcp/default} — {@code {"tool": "query", "step": {...}}}, the answer once the tool's script is used up</li>
 *   <li>{@code POST /_mcp/sse} — {@code {"enabled": true}}: answer requests as SSE streams when the client accepts them</li>
 *   <li>{@code POST /_mcp/versions} — {@code ["2026-07-28"]}: the revisions the server speaks</li>
 *   <li>{@code POST /_mcp/notify} — a JSON-RPC notification, pushed on every session's {@code GET} stream</li>
 *   <li>{@code POST /_mcp/reset} — forgets scripts, defaults, sessions and recorded requests (the tools stay)</li>
 *   <li>{@code GET /_mcp/requests} — {@code {"requests": [{method, path, headers, body, receivedAt, clientDisconnected}]}}</li>
 * </ul>
 *
 * <p>Thread-safe; the Java methods do the same as the control API.
 *
 * <pre>{@code
 * MockMcpServer mcp = MockMcpServer.start(vertx, 0).await();
 * mcp.tools(McpMockTool.of("query", "Runs a SQL query").idempotent(true));
 * mcp.script("query", McpToolStep.httpStatus(500, 3));
 * // ... point mcpServers.db.url at mcp.url() ...
 * mcp.close().await();
 * }</pre>
 */
public final class MockMcpServer {

    /** The path of the MCP endpoint. */
    public static final String PATH = "/mcp";

    private final Vertx vertx;
    private final McpToolScript script = new McpToolScript();
    private final McpSessions sessions = new McpSessions();
    private final RequestJournal journal = new RequestJournal();
    private volatile boolean sseAnswers;
    private volatile List<String> versions = McpPostHandler.ALL_VERSIONS;
    private HttpServer server;

    private MockMcpServer(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Starts a mock MCP server on {@code 127.0.0.1:port} ({@code 0} picks a free port). */
    public static Future<MockMcpServer> start(Vertx vertx, int port) {
        Objects.requireNonNull(vertx, "vertx");
        MockMcpServer mock = new MockMcpServer(vertx);
        Router router = Router.router(vertx);
        mock.mount(router);
        return vertx.createHttpServer().requestHandler(router).listen(port, "127.0.0.1").map(server -> {
            mock.server = server;
            return mock;
        });
    }

    /** The port the server listens on. */
    public int port() {
        return server.actualPort();
    }

    /** The MCP endpoint to configure as {@code mcpServers.<name>.url}. */
    public String url() {
        return "http://127.0.0.1:" + port() + PATH;
    }

    /** Replaces the tools that {@code tools/list} shows. */
    public MockMcpServer tools(McpMockTool... tools) {
        script.tools(Arrays.asList(tools));
        return this;
    }

    /** Appends steps answered to the next calls of {@code tool}. */
    public MockMcpServer script(String tool, McpToolStep... steps) {
        script.append(tool, Arrays.asList(steps));
        return this;
    }

    /** Sets the answer to calls of {@code tool} once its script is used up. */
    public MockMcpServer defaultStep(String tool, McpToolStep step) {
        script.defaultStep(tool, step);
        return this;
    }

    /** Whether requests are answered as SSE streams when the client accepts them (default: JSON). */
    public MockMcpServer sseAnswers(boolean enabled) {
        this.sseAnswers = enabled;
        return this;
    }

    /**
     * The protocol revisions the server speaks (default all four: 2025-03-26, 2025-06-18,
     * 2025-11-25 and 2026-07-28), as {@code server/discover} answers them; {@code 2026-07-28}
     * alone makes a server that refuses {@code initialize}, one without it a server that refuses
     * stateless requests.
     */
    public MockMcpServer versions(String... supported) {
        this.versions = List.of(supported);
        return this;
    }

    /** The JSON-RPC notifications of method {@code method} received so far, oldest first. */
    public List<JsonObject> notifications(String method) {
        return requests().stream().map(RecordedRequest::jsonBody).flatMap(Optional::stream)
                .filter(body -> method.equals(body.getString("method")) && !body.containsKey("id"))
                .toList();
    }

    /** Pushes a JSON-RPC notification on every session's {@code GET} stream (kept for resumption). */
    public MockMcpServer notifySessions(JsonObject notification) {
        sessions.broadcast(notification);
        return this;
    }

    /** The ids of the open sessions. */
    public List<String> sessions() {
        return sessions.ids();
    }

    /** How many {@code GET} streams are open now, over all sessions. */
    public int openStreams() {
        return sessions.ids().stream().map(sessions::find).flatMap(Optional::stream)
                .mapToInt(McpSessions.Session::openStreams).sum();
    }

    /** The MCP requests received so far, oldest first (control requests are not recorded). */
    public List<RecordedRequest> requests() {
        return journal.snapshot();
    }

    /** How many {@code tools/call} requests of {@code tool} reached this server. */
    public long calls(String tool) {
        return requests().stream()
                .filter(request -> request.jsonBody()
                        .filter(body -> "tools/call".equals(body.getString("method")))
                        .map(body -> tool.equals(body.getJsonObject("params", new JsonObject()).getString("name")))
                        .orElse(false))
                .count();
    }

    /** Forgets scripts, defaults, sessions and recorded requests; the tools stay listed. */
    public void reset() {
        script.reset();
        sessions.clear();
        journal.clear();
        sseAnswers = false;
        versions = McpPostHandler.ALL_VERSIONS;
    }

    /** Stops the server. */
    public Future<Void> close() {
        sessions.clear();
        return server == null ? Future.succeededFuture() : server.close();
    }

    /** Mounts the MCP endpoint and the control API on {@code router} (another server may host them). */
    public void mount(Router router) {
        McpPostHandler post = new McpPostHandler(vertx, script, sessions, journal, () -> sseAnswers, () -> versions);
        router.route(PATH).handler(BodyHandler.create(false));
        router.route("/_mcp/*").handler(BodyHandler.create(false));
        router.post(PATH).handler(post::handle);
        router.get(PATH).handler(this::stream);
        router.delete(PATH).handler(this::endSession);
        router.post("/_mcp/tools").handler(ctx -> control(ctx, () -> {
            List<McpMockTool> tools = new ArrayList<>();
            JsonArray list = (JsonArray) Json.decodeValue(ctx.body().buffer());
            list.forEach(tool -> tools.add(McpMockTool.fromJson((JsonObject) tool)));
            script.tools(tools);
            return new JsonObject().put("tools", tools.size());
        }));
        router.post("/_mcp/script").handler(ctx -> control(ctx, () -> {
            JsonObject body = ctx.body().asJsonObject();
            List<McpToolStep> steps = new ArrayList<>();
            body.getJsonArray("steps").forEach(step -> steps.add(McpToolStep.fromJson((JsonObject) step)));
            script.append(body.getString("tool"), steps);
            return new JsonObject().put("pending", script.pending());
        }));
        router.post("/_mcp/default").handler(ctx -> control(ctx, () -> {
            JsonObject body = ctx.body().asJsonObject();
            script.defaultStep(body.getString("tool"), McpToolStep.fromJson(body.getJsonObject("step")));
            return new JsonObject().put("pending", script.pending());
        }));
        router.post("/_mcp/sse").handler(ctx -> control(ctx, () -> {
            sseAnswers = ctx.body().asJsonObject().getBoolean("enabled");
            return new JsonObject().put("sse", sseAnswers);
        }));
        router.post("/_mcp/versions").handler(ctx -> control(ctx, () -> {
            JsonArray list = (JsonArray) Json.decodeValue(ctx.body().buffer());
            versions(list.stream().map(String.class::cast).toArray(String[]::new));
            return new JsonObject().put("versions", new JsonArray(versions));
        }));
        router.post("/_mcp/notify").handler(ctx -> control(ctx, () -> {
            notifySessions(ctx.body().asJsonObject());
            return new JsonObject().put("sessions", sessions.ids().size());
        }));
        router.post("/_mcp/reset").handler(ctx -> control(ctx, () -> {
            reset();
            return new JsonObject().put("pending", 0);
        }));
        router.get("/_mcp/requests").handler(ctx -> control(ctx, () -> new JsonObject()
                .put("requests", new JsonArray(requests().stream().map(RecordedRequest::toJson).toList()))));
    }

    /** {@code GET /mcp}: the session's stream of server messages, resumed after {@code Last-Event-ID}. */
    private void stream(RoutingContext ctx) {
        journal.record(ctx.request(), "");
        if (McpPostHandler.STATELESS_VERSION.equals(ctx.request().getHeader("MCP-Protocol-Version"))) {
            ctx.response().setStatusCode(405).putHeader("allow", "POST").end();
            return;
        }
        String id = ctx.request().getHeader("Mcp-Session-Id");
        if (id == null) {
            ctx.response().setStatusCode(400).end("missing Mcp-Session-Id");
            return;
        }
        sessions.find(id).ifPresentOrElse(session -> {
            ctx.response().setChunked(true).putHeader("content-type", "text/event-stream")
                    .putHeader("cache-control", "no-cache");
            // the status line goes out at once, so the client knows the stream is open
            ctx.response().writeHead();
            session.attach(ctx.response(), ctx.request().getHeader("Last-Event-ID"));
        }, () -> ctx.response().setStatusCode(404).end("unknown session " + id));
    }

    /** {@code DELETE /mcp}: ends the session. */
    private void endSession(RoutingContext ctx) {
        journal.record(ctx.request(), "");
        String id = ctx.request().getHeader("Mcp-Session-Id");
        if (McpPostHandler.STATELESS_VERSION.equals(ctx.request().getHeader("MCP-Protocol-Version"))) {
            ctx.response().setStatusCode(405).putHeader("allow", "POST").end();
        } else if (id != null && sessions.close(id)) {
            ctx.response().setStatusCode(200).end();
        } else {
            ctx.response().setStatusCode(404).end("unknown session " + id);
        }
    }

    private static void control(RoutingContext ctx, Supplier<JsonObject> action) {
        JsonObject answer;
        try {
            answer = action.get();
        } catch (IllegalArgumentException | ClassCastException | DecodeException | NullPointerException e) {
            ctx.response().setStatusCode(400).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("error", String.valueOf(e.getMessage())).encode());
            return;
        }
        ctx.response().putHeader("content-type", "application/json").end(answer.encode());
    }
}
