package io.agentfuse.gateway;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.gateway.admin.BreakerAdminHandler;
import io.agentfuse.gateway.admin.BreakerEventStream;
import io.agentfuse.gateway.admin.BrowserProtection;
import io.agentfuse.gateway.admin.BudgetAdminHandler;
import io.agentfuse.gateway.admin.DashboardHandler;
import io.agentfuse.gateway.admin.ReloadHandler;
import io.agentfuse.gateway.admin.StatsHandler;
import io.agentfuse.gateway.admin.TransitionHistory;
import io.agentfuse.gateway.budget.ClientKeys;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.gemini.GeminiEndpoint;
import io.agentfuse.gateway.gemini.GeminiMethodPath;
import io.agentfuse.gateway.gemini.GeminiModelList;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.mcp.McpProxy;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.models.ModelListHandler;
import io.agentfuse.gateway.models.TokenCountHandler;
import io.agentfuse.gateway.pipeline.ChatPipeline;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.reload.ConfigReloader;
import io.agentfuse.gateway.server.BodyAllowance;
import io.agentfuse.gateway.server.Readiness;
import io.agentfuse.gateway.server.SizedBodyReader;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The gateway's HTTP surface (docs/design.md §7): which handler serves which method and path — the
 * model endpoints of every dialect (the Gemini API's on the paths of its models), {@code /v1/models}
 * (and the Gemini API's model list), token counts, the MCP proxy,
 * {@code /healthz}, {@code /readyz}, the admin API (with the recent transitions and the budgets),
 * {@code /metrics} and the dashboard; that model and MCP paths need a client key under {@code clients:} — and the JSON error, in the
 * dialect the request suggests, of every request no handler answers (unknown path 404
 * {@code not_found}, wrong method 405, an unreadable or oversized body, a bug).
 *
 * <p>Made once per gateway; {@link #endpoints} makes one request handler per server instance.
 * Thread-safe.
 */
final class GatewayRoutes {

    private final AgentfuseRuntime runtime;
    private final ChatPipeline pipeline;
    private final McpProxy mcp;
    private final ConfigReloader reloader;
    private final BreakerEventStream events;
    private final GatewayMetrics metrics;
    private final Readiness readiness;
    private final TransitionHistory transitions;
    private final BudgetAdminHandler budgets;
    private final ClientKeys clients;

    GatewayRoutes(AgentfuseRuntime runtime, ChatPipeline pipeline, McpProxy mcp, ConfigReloader reloader,
                  BreakerEventStream events, GatewayMetrics metrics, Readiness readiness, TransitionHistory transitions,
                  BudgetAdminHandler budgets, ClientKeys clients) {
        this.runtime = runtime;
        this.pipeline = pipeline;
        this.mcp = mcp;
        this.reloader = reloader;
        this.events = events;
        this.metrics = metrics;
        this.readiness = readiness;
        this.transitions = transitions;
        this.budgets = budgets;
        this.clients = clients;
    }

    /**
     * One instance's request handler: a model request — {@code POST} on a dialect's path, its body
     * framed by its {@code Content-Length} or chunked — goes straight to the pipeline, every other
     * request through the router. A router costs a small request about a microsecond (its context,
     * route matching, the request wrapper, its end handlers: RESULTS.md, runs 34 and 50); the router
     * still serves the model paths for every request the direct way does not take (HTTP/2, an
     * {@code Expect} other than {@code 100-continue}, a length over the limit, a trailing slash,
     * another method), the same way.
     */
    Handler<HttpServerRequest> endpoints(Vertx vertx, long maxBodySize, BodyAllowance bodies) {
        Router router = router(vertx, maxBodySize, bodies);
        SizedBodyReader direct = new SizedBodyReader(maxBodySize, bodies);
        return request -> {
            Dialect dialect = request.method() == HttpMethod.POST ? Dialects.forPath(request.path()).orElse(null) : null;
            if (dialect == null || !direct.read(request, body -> pipeline.serve(dialect, request, body),
                    () -> GatewayErrors.respond(request.response(), dialect, RouteFailures.tooLarge(maxBodySize)))) {
                SizedBodyReader.answerBrokenBody(request);
                router.handle(request);
            }
        };
    }

    private Router router(Vertx vertx, long maxBodySize, BodyAllowance bodies) {
        Router router = Router.router(vertx);
        SizedBodyReader bodyReader = new SizedBodyReader(maxBodySize, bodies);
        router.route("/admin/*").handler(ctx -> {
            BrowserProtection.api(ctx.response()); // first: every admin answer, refusals included
            ctx.next();
        });
        router.route().handler(this::clientKey);
        for (Dialect dialect : Dialects.onOnePath()) {
            bodyReader.reading(router.post(dialect.path()))
                    .handler(pipeline.handler(dialect))
                    .failureHandler(ctx -> RouteFailures.failed(ctx, dialect, maxBodySize));
        }
        GeminiEndpoint gemini = new GeminiEndpoint(pipeline, runtime::config);
        bodyReader.reading(router.postWithRegex(GeminiMethodPath.ROUTE))
                .handler(gemini::handle)
                .failureHandler(ctx -> RouteFailures.failed(ctx, Dialects.GEMINI, maxBodySize));
        new GeminiModelList(runtime::config).mount(router); // before /v1/models, which it serves to Google's callers
        new ModelListHandler(runtime::config).mount(router);
        new TokenCountHandler(runtime::config, maxBodySize).mount(router, bodyReader);
        mcp.mount(router, maxBodySize, bodyReader);
        // HEAD too, as HTTP asks of every GET resource: load balancers' and uptime monitors' checks send it
        router.route("/healthz").method(HttpMethod.GET).method(HttpMethod.HEAD)
                .handler(ctx -> json(ctx, new JsonObject().put("status", "ok")));
        router.route("/readyz").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(readiness::handle);
        new BreakerAdminHandler(runtime.registry(), () -> runtime.config().server().adminToken()).mount(router);
        new ReloadHandler(reloader, () -> runtime.config().server().adminToken()).mount(router);
        budgets.mount(router);
        router.get("/admin/events").handler(events::subscribe);
        transitions.mount(router);
        new StatsHandler(metrics.recentTraffic()).mount(router);
        router.get("/metrics").handler(ctx -> ctx.response().putHeader("content-type", metrics.contentType())
                .end(metrics.scrape()));
        DashboardHandler dashboard = new DashboardHandler();
        router.get("/").handler(dashboard::handle);
        RouteFailures.answerUnrouted(router);
        return router;
    }

    /**
     * With {@code clients:}, a request for a model or MCP path ({@code /v1/...}, {@code /v1beta/...},
     * {@code /mcp...}) without a client's key ends here with 401 {@code invalid_api_key}: in the
     * dialect its path suggests, or as a JSON-RPC error for MCP. The model endpoints served without
     * the router check the key in the pipeline. The path is the one the routes match
     * ({@code //mcp/db}, {@code /%6dcp/db} and {@code /x/../mcp/db} are {@code /mcp/db}), not the one
     * written, so that no spelling of a guarded path reaches its route without a key.
     */
    private void clientKey(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        boolean guarded = path.startsWith("/v1/") || path.startsWith("/v1beta/") || path.startsWith("/mcp");
        if (guarded && clients.required()) {
            try {
                clients.identify(ctx.request(), GeminiMethodPath.isGoogleRoute(path));
            } catch (GatewayException refused) {
                if (path.startsWith("/mcp")) {
                    GatewayErrors.respondMcp(ctx.response(), refused);
                } else {
                    GatewayErrors.respond(ctx.response(), Dialects.ofCaller(path, ctx.request().headers()), refused);
                }
                return;
            }
        }
        ctx.next();
    }

    private static void json(RoutingContext ctx, JsonObject body) {
        ctx.response().putHeader("content-type", "application/json").end(body.encode());
    }
}
