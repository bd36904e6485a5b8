package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.server.SizedBodyReader;
import io.agentfuse.gateway.tracing.Tracing;
import io.agentfuse.gateway.upstream.UpstreamHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Objects;

/**
 * The MCP proxy (docs/design.md §7): {@code POST/GET/DELETE /mcp/{server}} relays MCP's streamable-HTTP
 * transport to {@code mcpServers.{server}.url} ({@link ServerEndpoint}), and {@code /mcp} serves
 * the servers of {@code mcp.aggregate} as one MCP server ({@link AggregateEndpoint}). Both run
 * {@code tools/call} under the tool's breaker {@code tool:<server>/<tool>} ({@link ToolCallRunner})
 * and every request under the server's {@code mcp:<server>}; both refuse a message whose routing
 * headers disagree with its body ({@link McpRequest}), and keep each session to the caller that
 * opened it ({@link SessionOwners}, by {@link CallerIdentity}).
 *
 * <p>Thread-safe; the configuration in force is read per request, so a reload applies at once.
 *
 * <pre>{@code
 * McpProxy proxy = new McpProxy(vertx, runtime, metrics, McpProxyOptions.defaults());
 * proxy.mount(router, config.server().maxBodySize(), bodyReader);
 * }</pre>
 */
public final class McpProxy {

    private final McpUpstream upstream;
    private final ServerEndpoint servers;
    private final AggregateEndpoint aggregate;

    /** A proxy that tells callers apart by {@link CallerIdentity#byCredentials()}. */
    public McpProxy(Vertx vertx, AgentfuseRuntime runtime, GatewayMetrics metrics, McpProxyOptions options) {
        this(vertx, runtime, metrics, options, CallerIdentity.byCredentials());
    }

    /** A proxy whose sessions belong to the callers {@code identity} names. */
    public McpProxy(Vertx vertx, AgentfuseRuntime runtime, GatewayMetrics metrics, McpProxyOptions options,
                    CallerIdentity identity) {
        this(vertx, runtime, metrics, options, identity, Tracing.OFF);
    }

    /**
     * A proxy whose sessions belong to the callers {@code identity} names, and whose calls are traced
     * by {@code tracing}: a span each, its context in the request's {@code params._meta}.
     */
    public McpProxy(Vertx vertx, AgentfuseRuntime runtime, GatewayMetrics metrics, McpProxyOptions options,
                    CallerIdentity identity, Tracing tracing) {
        this(vertx, runtime, metrics, options, identity, tracing, new UpstreamHttp(vertx,
                UpstreamHttp.Settings.direct(options.connectTimeout(), options.maxConnectionsPerServer())));
    }

    /**
     * The gateway's proxy for {@code server:}: its answer-size and client-write limits, and calls to MCP
     * servers through its egress proxy ({@code server.egressProxy} or the proxy variables).
     */
    public static McpProxy forServer(Vertx vertx, AgentfuseRuntime runtime, GatewayMetrics metrics, ServerConfig server,
                                     CallerIdentity identity, Tracing tracing) {
        McpProxyOptions defaults = McpProxyOptions.defaults();
        McpProxyOptions options = new McpProxyOptions(server.limits().maxUpstreamBody(), server.limits().clientWriteTimeout(),
                defaults.connectTimeout(), defaults.maxConnectionsPerServer());
        return new McpProxy(vertx, runtime, metrics, options, identity, tracing, new UpstreamHttp(vertx,
                new UpstreamHttp.Settings(options.connectTimeout(), options.maxConnectionsPerServer(), UpstreamHttp.IDLE,
                        server.egress())));
    }

    /**
     * As above, with the calls to MCP servers going out on {@code http} (its egress proxy, pool and
     * timeouts), which the proxy closes when it is closed.
     */
    public McpProxy(Vertx vertx, AgentfuseRuntime runtime, GatewayMetrics metrics, McpProxyOptions options,
                    CallerIdentity identity, Tracing tracing, UpstreamHttp http) {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(tracing, "tracing");
        this.upstream = new McpUpstream(vertx, options, Objects.requireNonNull(http, "http"));
        ToolCatalog catalog = new ToolCatalog(runtime.registry());
        ToolCallRunner toolCalls = new ToolCallRunner(runtime, upstream, catalog, metrics);
        SessionOwners owners = new SessionOwners();
        this.servers = new ServerEndpoint(vertx, runtime, options, upstream, catalog, toolCalls, owners, identity, tracing);
        this.aggregate = new AggregateEndpoint(vertx, runtime, upstream, catalog, toolCalls, identity);
        // The server breakers exist from the start, so the admin API lists them before any call.
        runtime.config().mcpServers().keySet().forEach(runtime::mcpServerBreaker);
    }

    /**
     * Adds the proxy's routes; request bodies are read by {@code bodies} (within the server's
     * budgets for bodies), and those over {@code maxBodySize} are refused with 413.
     */
    public void mount(Router router, long maxBodySize, SizedBodyReader bodies) {
        bodies.reading(router.post("/mcp")).handler(aggregate::post)
                .failureHandler(ctx -> failedRequest(ctx, maxBodySize));
        router.get("/mcp").handler(aggregate::get);
        router.delete("/mcp").handler(aggregate::delete);
        bodies.reading(router.post("/mcp/:server")).handler(servers::post)
                .failureHandler(ctx -> failedRequest(ctx, maxBodySize));
        router.get("/mcp/:server").handler(servers::get);
        router.delete("/mcp/:server").handler(servers::delete);
        router.route("/mcp").handler(McpProxy::wrongMethod);
        router.route("/mcp/:server").handler(McpProxy::wrongMethod);
    }

    /** Closes the pooled connections to MCP servers. */
    public Future<Void> close() {
        return upstream.close();
    }

    private static void wrongMethod(RoutingContext ctx) {
        GatewayErrors.respondAdmin(ctx.response().putHeader("allow", "GET, POST, DELETE"), 405, "invalid_request",
                "the MCP endpoint answers POST, GET and DELETE");
    }

    /** A POST the proxy could not read: a body over the limit, or a bug; JSON, never an HTML page. */
    private static void failedRequest(RoutingContext ctx, long maxBodySize) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        if (ctx.statusCode() == 413) {
            GatewayErrors.respondAdmin(ctx.response(), 413, "request_too_large",
                    "the request body is larger than " + maxBodySize + " bytes (server.maxBodySize)");
        } else if (ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
            GatewayErrors.respondAdmin(ctx.response(), ctx.statusCode(), "invalid_request", "the request could not be read");
        } else {
            GatewayErrors.respondAdmin(ctx.response(), 500, "internal_error", "the MCP proxy failed: "
                    + (ctx.failure() == null ? "HTTP " + ctx.statusCode() : ctx.failure().getMessage()));
        }
    }
}
