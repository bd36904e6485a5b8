package io.agentfuse.gateway;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.AgentfuseRuntimeBuilder;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.gateway.admin.BreakerAdminHandler;
import io.agentfuse.gateway.admin.BrowserProtection;
import io.agentfuse.gateway.admin.ReloadHandler;
import io.agentfuse.gateway.admin.StatsHandler;
import io.agentfuse.gateway.reload.ConfigReloader;
import io.agentfuse.gateway.reload.Reloaded;
import io.agentfuse.gateway.admin.BreakerEventStream;
import io.agentfuse.gateway.admin.DashboardHandler;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.http.JsonFaults;
import io.agentfuse.gateway.internal.VertxScheduler;
import io.agentfuse.gateway.mcp.McpProxy;
import io.agentfuse.gateway.mcp.McpProxyOptions;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.metrics.TransitionLog;
import io.agentfuse.gateway.models.ModelListHandler;
import io.agentfuse.gateway.models.TokenCountHandler;
import io.agentfuse.gateway.context.ContextLadderStage;
import io.agentfuse.gateway.pipeline.ChatPipeline;
import io.agentfuse.gateway.pipeline.ContextStage;
import io.agentfuse.gateway.pipeline.ModelClient;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.server.GatewayVerticle;
import io.agentfuse.gateway.server.BodyAllowance;
import io.agentfuse.gateway.server.SizedBodyReader;
import io.agentfuse.gateway.state.StateStores;
import io.agentfuse.gateway.upstream.UpstreamClient;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * The agentfuse HTTP gateway on Vert.x: an OpenAI- ({@code POST /v1/chat/completions},
 * {@code POST /v1/responses}) and Anthropic-compatible ({@code POST /v1/messages}) proxy whose every model call goes through the
 * model's fallback chain and guards, plus {@code GET /healthz}, the admin API
 * ({@code /admin/breakers}, {@code /admin/reload}, {@code /admin/events}), {@code GET /metrics} (Prometheus) and a live
 * dashboard at {@code GET /}.
 *
 * <p>Every error is JSON in the caller's dialect, on unknown paths (404 {@code not_found}) and
 * for wrong methods (405) too. Breaker state lives in memory ({@code state.store: memory}), or is
 * shared with every gateway on the same Redis ({@code state.store: redis}, DESIGN §8; see
 * {@link StateStores}). Request bodies over {@code server.maxBodySize} are answered
 * 413 {@code request_too_large}. {@code server.eventLoops} server instances share one port and
 * everything else (see {@link GatewayVerticle}); the limits of the {@code server:} section
 * (DESIGN §7) are applied at the edge ({@code io.agentfuse.gateway.server}) and by the upstream
 * client, as read at start.
 * {@link #close()} stops accepting requests, ends event streams and closes the upstream pool;
 * the Vert.x instance belongs to the caller, who closes it afterwards.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * Vertx vertx = Vertx.vertx();
 * GatewayServer gateway = GatewayServer.start(vertx, ConfigLoader.load(Path.of("agentfuse.yaml")),
 *         GatewayOptions.builder().port(0).build()).await();
 * System.out.println("listening on " + gateway.port());
 * gateway.close().await();
 * vertx.close().await();
 * }</pre>
 */
public final class GatewayServer {

    /** The worker pool the context ladder counts and compacts on: bounded, off the event loops. */
    private static final String CONTEXT_POOL = "agentfuse-context";
    private static final int SHARED_RANDOM_PORT = -1;
    private static final int CONTEXT_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

    private final AgentfuseRuntime runtime;
    private final UpstreamClient upstream;
    private final GatewayMetrics metrics;
    private final BreakerEventStream events;
    private final ChatPipeline pipeline;
    private final McpProxy mcp;
    private final ConfigReloader reloader;
    private final String host;
    private final WorkerExecutor contextWorkers;
    private final List<String> deployments = new CopyOnWriteArrayList<>();
    private final Vertx vertx;
    private final Optional<BreakerStateStore> stateStore;
    private volatile int port;

    private GatewayServer(Vertx vertx, AgentfuseConfig config, GatewayOptions options,
                          Optional<BreakerStateStore> stateStore) {
        this.stateStore = stateStore;
        this.metrics = new GatewayMetrics();
        AgentfuseRuntimeBuilder runtimeBuilder = AgentfuseRuntime.builder(config)
                .retryListener(metrics.retryListener())
                .clock(options.clock())
                .scheduler(new VertxScheduler(vertx))
                .tokens(ChatPipeline.TOKENS);
        stateStore.ifPresent(runtimeBuilder::stateStore);
        this.runtime = runtimeBuilder.build();
        this.vertx = vertx;
        ServerConfig.Limits limits = config.server().limits();
        this.upstream = new UpstreamClient(vertx, options.upstream()
                .withLimits(limits.maxUpstreamBody(), (int) limits.maxSseEvent(), limits.clientWriteTimeout()));
        metrics.watchBreakers(runtime.registry());
        metrics.declareModels(config.models().values());
        runtime.onFamilyModelDropped(metrics::forgetModel);
        runtime.registry().addListener(new TransitionLog());
        this.events = new BreakerEventStream(vertx, runtime.registry(), (int) limits.maxEventQueue());
        this.contextWorkers = vertx.createSharedWorkerExecutor(CONTEXT_POOL, CONTEXT_THREADS);
        ContextStage.Factory context = options.contextStage() != null ? options.contextStage()
                : ContextLadderStage.factory(Clock.system(), new VertxScheduler(vertx), onWorkers(contextWorkers), metrics);
        this.pipeline = new ChatPipeline(runtime, upstream, metrics, Clock.system(), context);
        this.host = options.host();
        McpProxyOptions mcpDefaults = McpProxyOptions.defaults();
        this.mcp = new McpProxy(vertx, runtime, metrics, new McpProxyOptions(limits.maxUpstreamBody(),
                limits.clientWriteTimeout(), mcpDefaults.connectTimeout(), mcpDefaults.maxConnectionsPerServer()));
        this.reloader = new ConfigReloader(vertx, runtime, metrics, options.configFile());
    }

    /** Starts a gateway for {@code config} with {@link GatewayOptions#defaults()}. */
    public static Future<GatewayServer> start(Vertx vertx, AgentfuseConfig config) {
        return start(vertx, config, GatewayOptions.defaults());
    }

    /**
     * Starts a gateway for {@code config}; the future fails if the port cannot be bound. With
     * {@code state.store: redis} it starts whether or not Redis answers yet.
     */
    public static Future<GatewayServer> start(Vertx vertx, AgentfuseConfig config, GatewayOptions options) {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(options, "options");
        GatewayServer gateway;
        Optional<BreakerStateStore> stateStore = StateStores.open(config.state());
        try {
            gateway = new GatewayServer(vertx, config, options, stateStore);
        } catch (RuntimeException e) {
            stateStore.ifPresent(BreakerStateStore::close);
            return Future.failedFuture(e);
        }
        int port = options.port() != null ? options.port() : config.server().port();
        BodyAllowance bodies = BodyAllowance.ofHeap();
        GatewayVerticle.Shared shared = new GatewayVerticle.Shared(vertx, config.server(), options.host(), bodies,
                instanceVertx -> gateway.endpoints(instanceVertx, config.server().maxBodySize(), bodies));
        return gateway.deploy(shared, port, config.server().eventLoops())
                .map(ignored -> {
                    gateway.reloader.watch();
                    return gateway;
                })
                .recover(failure -> gateway.close().transform(ignored -> Future.failedFuture(failure)));
    }

    /**
     * One server instance per event loop on one port. Port 0 becomes -1, Vert.x's "a random port
     * shared by every server asking for -1", so that the instances pick one free port together.
     */
    private Future<Void> deploy(GatewayVerticle.Shared shared, int requestedPort, int instances) {
        int listenPort = requestedPort == 0 ? SHARED_RANDOM_PORT : requestedPort;
        List<GatewayVerticle> started = new CopyOnWriteArrayList<>();
        return vertx.deployVerticle(() -> {
            GatewayVerticle verticle = new GatewayVerticle(shared, listenPort);
            started.add(verticle);
            return verticle;
        }, new DeploymentOptions().setInstances(instances)).map(id -> {
            deployments.add(id);
            port = started.get(0).actualPort();
            return null;
        });
    }

    private static Executor onWorkers(WorkerExecutor workers) {
        return task -> workers.executeBlocking(() -> {
            task.run();
            return null;
        }, false);
    }

    /**
     * One instance's request handler: a model request — {@code POST} on a dialect's path, its body
     * framed by its {@code Content-Length} — goes straight to the pipeline, every other request
     * through the router. A router costs a small request about a microsecond (its context, route
     * matching, the request wrapper, its end handlers: RESULTS.md, runs 34 and 50); the router
     * still serves the model paths for every request the direct way does not take (chunked, with
     * {@code Expect}, a trailing slash, another method), the same way.
     */
    private Handler<HttpServerRequest> endpoints(Vertx vertx, long maxBodySize, BodyAllowance bodies) {
        Router router = router(vertx, maxBodySize, bodies);
        SizedBodyReader direct = new SizedBodyReader(maxBodySize, bodies);
        return request -> {
            Dialect dialect = request.method() == HttpMethod.POST ? Dialects.forPath(request.path()).orElse(null) : null;
            if (dialect == null || !direct.read(request, body -> pipeline.serve(dialect, request, body),
                    () -> GatewayErrors.respond(request.response(), dialect, tooLarge(maxBodySize)))) {
                router.handle(request);
            }
        };
    }

    private Router router(Vertx vertx, long maxBodySize, BodyAllowance bodies) {
        Router router = Router.router(vertx);
        router.route("/admin/*").handler(ctx -> {
            BrowserProtection.api(ctx.response()); // first: every admin answer, refusals included
            ctx.next();
        });
        for (Dialect dialect : Dialects.all()) {
            router.post(dialect.path())
                    .handler(new SizedBodyReader(maxBodySize, bodies))
                    .handler(BodyHandler.create(false).setBodyLimit(maxBodySize))
                    .handler(pipeline.handler(dialect))
                    .failureHandler(ctx -> failed(ctx, dialect, maxBodySize));
        }
        new ModelListHandler(runtime::config).mount(router);
        new TokenCountHandler(runtime::config, maxBodySize).mount(router);
        mcp.mount(router, maxBodySize);
        router.get("/healthz").handler(ctx -> json(ctx, new JsonObject().put("status", "ok")));
        new BreakerAdminHandler(runtime.registry(), () -> runtime.config().server().adminToken()).mount(router);
        new ReloadHandler(reloader, () -> runtime.config().server().adminToken()).mount(router);
        router.get("/admin/events").handler(events::subscribe);
        new StatsHandler(metrics.recentTraffic()).mount(router);
        router.get("/metrics").handler(ctx -> ctx.response().putHeader("content-type", metrics.contentType())
                .end(metrics.scrape()));
        DashboardHandler dashboard = new DashboardHandler();
        router.get("/").handler(dashboard::handle);
        router.errorHandler(404, ctx -> unrouted(ctx, new GatewayException(GatewayError.NOT_FOUND,
                "no endpoint at " + ctx.request().method() + " " + ctx.request().path()
                        + "; the model endpoints are POST /v1/chat/completions, POST /v1/responses and POST /v1/messages"
                        + (ctx.request().path().startsWith("/v1/") ? "" : " (does the client's base URL lack /v1?)"))));
        router.errorHandler(405, ctx -> unrouted(ctx, new GatewayException(GatewayError.METHOD_NOT_ALLOWED,
                ctx.request().method() + " is not allowed on " + ctx.request().path())));
        router.errorHandler(500, ctx -> unrouted(ctx, new GatewayException(GatewayError.INTERNAL_ERROR,
                "the gateway failed unexpectedly")));
        return router;
    }

    /** A request no route took: answered in JSON of the dialect its path or headers suggest. */
    private static void unrouted(RoutingContext ctx, GatewayException error) {
        if (!ctx.response().ended() && !ctx.response().closed()) {
            GatewayErrors.respond(ctx.response(), Dialects.ofCaller(ctx.request().path(), ctx.request().headers()), error);
        }
    }

    /** A failure the pipeline did not answer itself: an oversized or unreadable body, or a bug. */
    private static void failed(RoutingContext ctx, Dialect dialect, long maxBodySize) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        GatewayException error;
        if (ctx.statusCode() == 413) {
            error = tooLarge(maxBodySize);
        } else if (ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
            // A framework's or parser's message would name its insides: said in our words, or not at all.
            String cause = ctx.failure() instanceof DecodeException decode ? ": " + JsonFaults.describe(decode)
                    : " (HTTP " + ctx.statusCode() + ")";
            error = new GatewayException(GatewayError.INVALID_REQUEST, "the request could not be read" + cause);
        } else {
            error = new GatewayException(GatewayError.INTERNAL_ERROR, "the gateway failed unexpectedly");
        }
        GatewayErrors.respond(ctx.response(), dialect, error);
    }

    private static GatewayException tooLarge(long maxBodySize) {
        return new GatewayException(GatewayError.REQUEST_TOO_LARGE, "the request body is larger than "
                + maxBodySize + " bytes (server.maxBodySize)");
    }

    private static void json(RoutingContext ctx, JsonObject body) {
        ctx.response().putHeader("content-type", "application/json").end(body.encode());
    }

    /** The port the gateway listens on (the bound one when started on port 0). */
    public int port() {
        return port;
    }

    /** The address the gateway listens on. */
    public String host() {
        return host;
    }

    /** {@code http://host:port}, the base URL clients use. */
    public String baseUrl() {
        return "http://" + host + ":" + port();
    }

    /** The guards, breakers and configuration in force. */
    public AgentfuseRuntime runtime() {
        return runtime;
    }

    /** The metrics served at {@code /metrics}. */
    public GatewayMetrics metrics() {
        return metrics;
    }

    /** Complete model calls through the gateway's guarded chains, without HTTP. */
    public ModelClient models() {
        return pipeline.models();
    }

    /**
     * Reads the configuration file again and puts it in force (what {@code POST /admin/reload} and
     * SIGHUP do); fails with the file's errors, leaving the configuration in force as it was.
     */
    public Future<Reloaded> reload(String trigger) {
        return reloader.reload(trigger);
    }

    /** Stops listening (requests in flight are cut), ends event streams, closes the upstream pool. */
    public Future<Void> close() {
        reloader.close();
        List<Future<Void>> stopped = deployments.stream().map(vertx::undeploy).toList();
        deployments.clear();
        return Future.join(stopped).transform(ignored -> release());
    }

    private Future<Void> release() {
        events.close();
        stateStore.ifPresent(BreakerStateStore::close);
        return Future.join(upstream.close(), mcp.close()).eventually(contextWorkers::close).mapEmpty();
    }
}
