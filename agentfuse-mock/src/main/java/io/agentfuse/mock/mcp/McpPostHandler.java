package io.agentfuse.mock.mcp;

import io.agentfuse.mock.RequestJournal;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Answers {@code POST /mcp} of a {@link MockMcpServer}, in either era of the streamable-HTTP
 * transport:
 * <ul>
 *   <li><b>2025-11-25</b> (and 2025-06-18, 2025-03-26): {@code initialize} opens a session whose id
 *       is sent as {@code Mcp-Session-Id}; every later request must carry it (400 without, 404
 *       for an unknown one); notifications are answered 202.</li>
 *   <li><b>2026-07-28</b> (a request whose {@code MCP-Protocol-Version} says so): stateless, no
 *       session; {@code Mcp-Method} must name the body's method and, for {@code tools/call},
 *       {@code Mcp-Name} the tool, else 400 with JSON-RPC error -32001 (header mismatch).</li>
 *   <li>{@code server/discover}, in either era and without a session, answers the revisions the
 *       server speaks ({@link MockMcpServer#versions}); a revision it does not speak is refused
 *       with -32004.</li>
 * </ul>
 * Answers are JSON, or an SSE stream of one {@code message} event when the server (or the step)
 * says so and the client accepts {@code text/event-stream}.
 */
final class McpPostHandler {

    /** The stateless revision. */
    static final String STATELESS_VERSION = "2026-07-28";
    /** The newest session revision, answered to clients that ask for one it does not know. */
    static final String SESSION_VERSION = "2025-11-25";

    /** Every revision the mock speaks, oldest first. */
    static final List<String> ALL_VERSIONS = List.of("2025-03-26", "2025-06-18", SESSION_VERSION, STATELESS_VERSION);

    private final Vertx vertx;
    private final McpToolScript script;
    private final McpSessions sessions;
    private final RequestJournal journal;
    private final BooleanSupplier sseAnswers;
    private final Supplier<List<String>> versions;

    McpPostHandler(Vertx vertx, McpToolScript script, McpSessions sessions, RequestJournal journal, BooleanSupplier sseAnswers,
                   Supplier<List<String>> versions) {
        this.vertx = vertx;
        this.script = script;
        this.sessions = sessions;
        this.journal = journal;
        this.sseAnswers = sseAnswers;
        this.versions = versions;
    }

    void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String text = ctx.body().asString();
        RequestJournal.Entry entry = journal.record(request, text == null ? "" : text);
        ctx.response().closeHandler(v -> entry.markDisconnected());
        JsonObject message;
        try {
            message = new JsonObject(text == null ? "" : text);
        } catch (DecodeException | ClassCastException e) {
            json(ctx.response().setStatusCode(400), error(null, -32700, "parse error: the body is not a JSON object"));
            return;
        }
        String method = message.getString("method");
        Object id = message.getValue("id");
        boolean stateless = STATELESS_VERSION.equals(request.getHeader("MCP-Protocol-Version"));
        if ("server/discover".equals(method) && id != null) {
            // answered in both eras, without a session: it comes before any negotiation
            json(ctx.response(), result(id, new JsonObject().put("resultType", "complete")
                    .put("supportedVersions", new JsonArray(versions.get()))
                    .put("capabilities", capabilities())
                    .put("_meta", new JsonObject().put("io.modelcontextprotocol/serverInfo", serverInfo()))));
            return;
        }
        if (stateless && !versions.get().contains(STATELESS_VERSION)) {
            json(ctx.response().setStatusCode(400), error(id, -32004, "unsupported protocol version " + STATELESS_VERSION));
            return;
        }
        if (stateless) {
            String mismatch = headerMismatch(request, method, message);
            if (mismatch != null) {
                json(ctx.response().setStatusCode(400), error(id, -32001, mismatch));
                return;
            }
        } else if (!"initialize".equals(method)) {
            String sessionId = request.getHeader("Mcp-Session-Id");
            if (sessionId == null) {
                json(ctx.response().setStatusCode(400), error(id, -32600, "missing Mcp-Session-Id"));
                return;
            }
            if (sessions.find(sessionId).isEmpty()) {
                json(ctx.response().setStatusCode(404), error(id, -32600, "unknown session " + sessionId));
                return;
            }
        }
        if (method == null || id == null) {
            // a notification or a response to one of ours
            ctx.response().setStatusCode(202).end();
            return;
        }
        boolean acceptsSse = String.valueOf(request.getHeader("Accept")).contains("text/event-stream");
        switch (method) {
            case "initialize" -> initialize(ctx, id, message.getJsonObject("params", new JsonObject()), stateless);
            case "ping" -> answer(ctx.response(), result(id, new JsonObject()), acceptsSse && sseAnswers.getAsBoolean());
            case "tools/list" -> answer(ctx.response(), result(id, new JsonObject().put("tools",
                    new JsonArray(script.tools().stream().map(McpMockTool::toJson).toList()))), acceptsSse && sseAnswers.getAsBoolean());
            case "tools/call" -> call(ctx.response(), id, message.getJsonObject("params", new JsonObject()), acceptsSse);
            default -> answer(ctx.response(), error(id, -32601, "method not found: " + method), false);
        }
    }

    private void initialize(RoutingContext ctx, Object id, JsonObject params, boolean stateless) {
        String asked = params.getString("protocolVersion");
        List<String> sessionVersions = versions.get().stream().filter(version -> !STATELESS_VERSION.equals(version)).toList();
        if (!stateless && sessionVersions.isEmpty()) {
            json(ctx.response(), error(id, -32004, "unsupported protocol version: this server speaks " + STATELESS_VERSION
                    + " only; use server/discover"));
            return;
        }
        String version = stateless ? STATELESS_VERSION : sessionVersions.contains(asked) ? asked
                : sessionVersions.get(sessionVersions.size() - 1);
        JsonObject result = new JsonObject()
                .put("protocolVersion", version)
                .put("capabilities", capabilities())
                .put("serverInfo", serverInfo());
        if (!stateless) {
            ctx.response().putHeader("Mcp-Session-Id", sessions.open().id);
        }
        json(ctx.response(), result(id, result));
    }

    private void call(HttpServerResponse response, Object id, JsonObject params, boolean acceptsSse) {
        String tool = params.getString("name");
        if (tool == null || !script.has(tool)) {
            answer(response, error(id, -32602, "unknown tool: " + tool), false);
            return;
        }
        McpToolStep step = script.next(tool);
        Runnable reply = () -> {
            if (response.closed()) {
                return;
            }
            if (step.drop()) {
                response.reset();
                return;
            }
            if (step.status() / 100 != 2) {
                response.setStatusCode(step.status()).putHeader("content-type", "text/plain")
                        .end("scripted HTTP " + step.status());
                return;
            }
            JsonObject message = step.errorCode() != null ? error(id, step.errorCode(), step.errorMessage())
                    : result(id, step.toResult());
            boolean sse = acceptsSse && Objects.requireNonNullElse(step.sse(), sseAnswers.getAsBoolean());
            answer(response, message, sse);
        };
        if (step.delayMs() > 0) {
            vertx.setTimer(step.delayMs(), timer -> reply.run());
        } else {
            reply.run();
        }
    }

    private static String headerMismatch(HttpServerRequest request, String method, JsonObject message) {
        String headerMethod = request.getHeader("Mcp-Method");
        if (method != null && !method.equals(headerMethod)) {
            return "header mismatch: Mcp-Method is " + headerMethod + " but the body's method is " + method;
        }
        if ("tools/call".equals(method)) {
            String name = message.getJsonObject("params", new JsonObject()).getString("name");
            String headerName = request.getHeader("Mcp-Name");
            if (!Objects.equals(name, headerName)) {
                return "header mismatch: Mcp-Name is " + headerName + " but the tool called is " + name;
            }
        }
        return null;
    }

    private static void answer(HttpServerResponse response, JsonObject message, boolean sse) {
        if (!sse) {
            json(response, message);
            return;
        }
        response.putHeader("content-type", "text/event-stream").putHeader("cache-control", "no-cache")
                .end("id: r-" + message.getValue("id") + "\nevent: message\ndata: " + message.encode() + "\n\n");
    }

    private static void json(HttpServerResponse response, JsonObject message) {
        response.putHeader("content-type", "application/json").end(message.encode());
    }

    private static JsonObject capabilities() {
        return new JsonObject().put("tools", new JsonObject().put("listChanged", true));
    }

    private static JsonObject serverInfo() {
        return new JsonObject().put("name", "agentfuse-mock-mcp").put("version", "1.0.0");
    }

    static JsonObject result(Object id, JsonObject result) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
    }

    static JsonObject error(Object id, int code, String message) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id)
                .put("error", new JsonObject().put("code", code).put("message", message));
    }
}
