package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.McpConfig;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.http.GatewayErrors;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST/GET/DELETE /mcp}: the servers of {@code mcp.aggregate} as one MCP server (docs/design.md §7,
 * "Aggregation"), in both eras: 2025-11-25 sessions ({@code initialize}, {@code Mcp-Session-Id},
 * each session the caller's own, {@link AggregateSessions}) and 2026-07-28 stateless requests
 * ({@code MCP-Protocol-Version: 2026-07-28}, {@code Mcp-Method} / {@code Mcp-Name} checked against
 * the body). It serves tools only:
 * <ul>
 *   <li>{@code tools/list}: the merged list of {@link AggregateTools};</li>
 *   <li>{@code tools/call} of {@code <server><separator><tool>}: the tool's call on its server, in
 *       this caller's session with it, under {@code tool:<server>/<tool>} ({@link AggregateCalls});</li>
 *   <li>{@code initialize} and {@code server/discover} first try to reach every server not reached
 *       yet (each within its {@code listTimeout}) and fail while a server that is not
 *       {@code optional} never was; {@code server/discover} answers the versions every reached
 *       server supports;</li>
 *   <li>{@code ping}: an empty result; notifications and responses: 202 ({@code notifications/cancelled}
 *       cancels the session's call, on its server too); other methods: {@code -32601}.</li>
 * </ul>
 * The proxy answers as the server it is: JSON-RPC messages with HTTP 200, never an SSE stream,
 * no {@code GET} stream (405), and it never sends {@code notifications/tools/list_changed}.
 * Without {@code mcp.aggregate} every request is 404. Thread-safe.
 */
final class AggregateEndpoint {

    /** The version in the gateway's {@code serverInfo}. */
    static final String VERSION = Objects.requireNonNullElse(AggregateEndpoint.class.getPackage().getImplementationVersion(),
            "0.1.0");
    /** The protocol versions the aggregate speaks with its callers, oldest first. */
    static final List<String> VERSIONS = List.of("2025-03-26", "2025-06-18", UpstreamSession.SESSIONS, UpstreamSession.STATELESS);

    private final Vertx vertx;
    private final AgentfuseRuntime runtime;
    private final McpUpstream upstream;
    private final CallerIdentity identity;
    private final AggregateTools tools;
    private final AggregateCalls calls;
    private final AggregateSessions sessions = new AggregateSessions();
    private final Map<String, AggregatedServer> servers = new ConcurrentHashMap<>();

    AggregateEndpoint(Vertx vertx, AgentfuseRuntime runtime, McpUpstream upstream, ToolCatalog catalog,
                      ToolCallRunner toolCalls, CallerIdentity identity) {
        this.vertx = vertx;
        this.runtime = runtime;
        this.upstream = upstream;
        this.identity = identity;
        this.tools = new AggregateTools(runtime, upstream, catalog);
        this.calls = new AggregateCalls(runtime, upstream, toolCalls);
    }

    void post(RoutingContext ctx) {
        McpConfig mcp = runtime.config().mcp();
        if (!mcp.aggregates()) {
            notAggregating(ctx.response(), McpRequest.requestIdOf(ctx.request().headers(), ctx.body().buffer()));
            return;
        }
        McpRequest request;
        try {
            request = McpRequest.of(ctx.request().headers(), ctx.body().buffer() == null ? Buffer.buffer() : ctx.body().buffer());
        } catch (McpRefusal refusal) {
            refusal.reply().send(ctx.response());
            return;
        }
        String caller = identity.of(ctx.request());
        String method = request.method();
        boolean stateless = UpstreamSession.STATELESS.equals(ctx.request().getHeader(UpstreamSession.VERSION_HEADER));
        AggregateSessions.Session session = null;
        if (!stateless && !"initialize".equals(method) && !"server/discover".equals(method)) {
            String id = ctx.request().getHeader(ServerEndpoint.SESSION_HEADER);
            if (id == null) {
                new McpReply.Made(400, ProxyAnswers.error(request.id(), -32600, "invalid_request",
                        "missing Mcp-Session-Id: send initialize first (or MCP-Protocol-Version: 2026-07-28)"), -1)
                        .send(ctx.response());
                return;
            }
            session = sessions.find(id, caller).orElse(null);
            if (session == null) {
                ServerEndpoint.unknownSession(request.id()).send(ctx.response());
                return;
            }
        }
        if (method == null || method.startsWith("notifications/") || request.id() == null) {
            if ("notifications/cancelled".equals(method) && session != null
                    && request.message().getValue("params") instanceof JsonObject params) {
                session.cancel(params.getValue("requestId"));
            }
            ctx.response().setStatusCode(202).end();
            return;
        }
        List<AggregatedServer> aggregated = aggregated(mcp);
        Object id = request.id();
        CompletableFuture<JsonObject> answer = switch (method) {
            case "initialize" -> initialize(ctx, request, caller, aggregated);
            case "server/discover" -> discover(id, aggregated);
            case "ping" -> CompletableFuture.completedFuture(result(id, new JsonObject()));
            case "tools/list" -> tools.list(aggregated, mcp).thenApply(list -> result(id, new JsonObject().put("tools", list)));
            case "tools/call" -> calls.call(request, mcp, aggregated, session);
            default -> CompletableFuture.completedFuture(ProxyAnswers.error(id, -32601, "not_found",
                    "method not found: the aggregate endpoint serves tools (tools/list, tools/call), not " + method));
        };
        if (session != null && "tools/call".equals(method)) {
            session.track(id, answer);
        }
        Context context = vertx.getOrCreateContext();
        ctx.response().closeHandler(v -> answer.cancel(true));
        answer.whenComplete((message, error) -> context.runOnContext(v -> send(ctx, id, message, error, stateless)));
    }

    /** {@code GET}: the aggregate pushes nothing, so it offers no stream. */
    void get(RoutingContext ctx) {
        if (!runtime.config().mcp().aggregates()) {
            notAggregating(ctx.response(), null);
            return;
        }
        GatewayErrors.respondAdmin(ctx.response().putHeader("allow", "POST, DELETE"), 405, "invalid_request",
                "the aggregate MCP endpoint sends no server stream: it answers every request on its POST");
    }

    /** {@code DELETE}: ends the caller's session and the gateway's sessions with the servers for it. */
    void delete(RoutingContext ctx) {
        if (!runtime.config().mcp().aggregates()) {
            notAggregating(ctx.response(), null);
            return;
        }
        String session;
        try {
            session = McpRequest.session(ctx.request().headers(), null);
        } catch (McpRefusal twice) {
            twice.reply().send(ctx.response());
            return;
        }
        if (sessions.close(session, identity.of(ctx.request()))) {
            ctx.response().setStatusCode(200).end();
        } else {
            ServerEndpoint.unknownSession(null).send(ctx.response());
        }
    }

    private CompletableFuture<JsonObject> initialize(RoutingContext ctx, McpRequest request, String caller,
                                                     List<AggregatedServer> aggregated) {
        Object id = request.id();
        String asked = request.message().getValue("params") instanceof JsonObject params
                && params.getValue("protocolVersion") instanceof String version ? version : null;
        String version = asked != null && VERSIONS.contains(asked) && !UpstreamSession.STATELESS.equals(asked)
                ? asked : UpstreamSession.SESSIONS;
        return unreachedRequired(aggregated).thenApply(missing -> {
            if (!missing.isEmpty()) {
                return requiredMissing(id, missing);
            }
            AggregateSessions.Session session = sessions.open(caller, version);
            ctx.response().putHeader(ServerEndpoint.SESSION_HEADER, session.id);
            return result(id, new JsonObject().put("protocolVersion", version)
                    .put("capabilities", capabilities())
                    .put("serverInfo", serverInfo())
                    .put("instructions", "The tools of the MCP servers " + names(aggregated)
                            + ", each named <server>" + runtime.config().mcp().separator() + "<tool>."));
        });
    }

    private CompletableFuture<JsonObject> discover(Object id, List<AggregatedServer> aggregated) {
        return unreachedRequired(aggregated).thenApply(missing -> {
            if (!missing.isEmpty()) {
                return requiredMissing(id, missing);
            }
            List<String> versions = new ArrayList<>(VERSIONS);
            aggregated.stream().filter(AggregatedServer::reached).forEach(server -> versions.retainAll(server.versions()));
            return result(id, new JsonObject().put("resultType", "complete")
                    .put("supportedVersions", new JsonArray(versions))
                    .put("capabilities", capabilities())
                    .put("_meta", new JsonObject().put("io.modelcontextprotocol/serverInfo", serverInfo())));
        });
    }

    /** Tries every server not reached yet (within its listTimeout); the names of the required ones still not reached. */
    private CompletableFuture<List<String>> unreachedRequired(List<AggregatedServer> aggregated) {
        List<CompletableFuture<?>> attempts = new ArrayList<>();
        for (AggregatedServer server : aggregated) {
            if (!server.reached()) {
                attempts.add(tools.fetch(server).copy()
                        .orTimeout(server.config().listTimeout().toMillis(), TimeUnit.MILLISECONDS)
                        .handle((list, error) -> null));
            }
        }
        return CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new)).thenApply(done -> aggregated.stream()
                .filter(server -> !server.reached() && !server.config().optional())
                .map(server -> server.config().name()).toList());
    }

    private static JsonObject requiredMissing(Object id, List<String> missing) {
        return ProxyAnswers.error(id, ProxyAnswers.SERVER_OPEN_CODE, "upstream_unreachable", "the MCP server"
                + (missing.size() > 1 ? "s " : " ") + String.join(", ", missing) + " of mcp.aggregate could not be reached "
                + "and " + (missing.size() > 1 ? "are" : "is") + " not optional: the aggregate starts once "
                + (missing.size() > 1 ? "they answer" : "it answers") + " (or mark it mcpServers.<server>.optional: true)");
    }

    /** The servers of {@code mcp.aggregate} as configured now; a server whose settings changed starts afresh. */
    private List<AggregatedServer> aggregated(McpConfig mcp) {
        List<AggregatedServer> list = new ArrayList<>();
        for (String name : mcp.aggregate()) {
            McpServerConfig config = runtime.config().mcpServers().get(name);
            if (config != null) {
                list.add(servers.compute(name, (key, known) ->
                        known != null && known.config().equals(config) ? known : new AggregatedServer(config, upstream)));
            }
        }
        return list;
    }

    private static void send(RoutingContext ctx, Object id, JsonObject message, Throwable error, boolean stateless) {
        HttpServerResponse response = ctx.response();
        if (response.closed() || response.ended()) {
            return;
        }
        JsonObject sent = message != null ? message
                : OutcomeClassifier.unwrap(error) instanceof CancellationException
                ? ProxyAnswers.error(id, -32800, "cancelled", "the request was cancelled by the caller")
                : ProxyAnswers.error(id, -32603, "internal_error", "the aggregate endpoint failed: " + error.getMessage());
        if (stateless && sent.getValue("result") instanceof JsonObject result && !result.containsKey("resultType")) {
            result.put("resultType", "complete");
        }
        response.setStatusCode(200).putHeader("content-type", "application/json").end(sent.encode());
    }

    private static void notAggregating(HttpServerResponse response, Object id) {
        McpReply.Made.notConfigured(id, "no MCP servers are aggregated at /mcp (mcp.aggregate is empty); use /mcp/{server}")
                .send(response);
    }

    static JsonObject result(Object id, JsonObject result) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
    }

    private static JsonObject capabilities() {
        return new JsonObject().put("tools", new JsonObject().put("listChanged", false));
    }

    private static JsonObject serverInfo() {
        return new JsonObject().put("name", "agentfuse").put("version", VERSION);
    }

    private static String names(List<AggregatedServer> aggregated) {
        return String.join(", ", aggregated.stream().map(server -> server.config().name()).toList());
    }
}
