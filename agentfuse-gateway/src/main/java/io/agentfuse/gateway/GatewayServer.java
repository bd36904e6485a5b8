package io.agentfuse.gateway;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.AgentfuseRuntimeBuilder;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.gateway.admin.TransitionHistory;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.gateway.admin.BudgetAdminHandler;
import io.agentfuse.gateway.budget.ClientKeys;
import io.agentfuse.gateway.reload.ConfigReloader;
import io.agentfuse.gateway.reload.Reloaded;
import io.agentfuse.gateway.admin.BreakerEventStream;
import io.agentfuse.gateway.internal.VertxScheduler;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.internal.vertx.VertxHookCheck;
import io.agentfuse.gateway.mcp.CallerIdentity;
import io.agentfuse.gateway.mcp.McpProxy;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.metrics.TransitionLog;
import io.agentfuse.gateway.context.ContextLadderStage;
import io.agentfuse.gateway.pipeline.ChatPipeline;
import io.agentfuse.gateway.pipeline.ContextStage;
import io.agentfuse.gateway.pipeline.ModelClient;
import io.agentfuse.gateway.server.GatewayVerticle;
import io.agentfuse.gateway.server.GracefulShutdown;
import io.agentfuse.gateway.server.Readiness;
import io.agentfuse.gateway.server.BodyAllowance;
import io.agentfuse.gateway.state.StateStores;
import io.agentfuse.gateway.tracing.Tracing;
import io.agentfuse.gateway.upstream.UpstreamClient;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * The agentfuse HTTP gateway on Vert.x: an OpenAI- ({@code POST /v1/chat/completions},
 * {@code POST /v1/responses}) and Anthropic-compatible ({@code POST /v1/messages}) proxy whose every model call goes through the
 * model's fallback chain and guards, plus {@code GET /healthz} (liveness), {@code GET /readyz} (readiness), the admin API
 * ({@code /admin/breakers}, {@code /admin/budgets}, {@code /admin/reload}, {@code /admin/events}), {@code GET /metrics}
 * (Prometheus) and a live dashboard at {@code GET /}. With {@code clients:} every model and MCP request needs
 * a client key; {@code budgets:} are reserved and settled per request (docs/design.md §11).
 *
 * <p>Every error is JSON in the caller's dialect, on unknown paths (404 {@code not_found}) and
 * for wrong methods (405) too. Breaker state lives in memory ({@code state.store: memory}), or is
 * shared with every gateway on the same Redis ({@code state.store: redis}, docs/design.md §8; see
 * {@link StateStores}). Request bodies over {@code server.maxBodySize} are answered
 * 413 {@code request_too_large}. {@code server.eventLoops} server instances share one port and
 * everything else (see {@link GatewayVerticle}); the limits of the {@code server:} section
 * (docs/design.md §7) are applied at the edge ({@code io.agentfuse.gateway.server}) and by the upstream
 * client, as read at start.
 * {@link #shutDown()} drains first (what SIGTERM does); {@link #close()} stops accepting requests at
 * once, ends event streams and closes the upstream pool; the Vert.x instance belongs to the caller,
 * who closes it afterwards.
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
    private final GatewayRoutes routes;
    private final String host;
    private final WorkerExecutor contextWorkers;
    private final List<String> deployments = new CopyOnWriteArrayList<>();
    private final List<GatewayVerticle> servers = new CopyOnWriteArrayList<>();
    private final Readiness readiness = new Readiness();
    private final TransitionHistory transitions = new TransitionHistory();
    private final Tracing tracing;
    private final Vertx vertx;
    private final Optional<BreakerStateStore> stateStore;
    private final BudgetLedger budgets;
    private volatile int port;

    private GatewayServer(Vertx vertx, AgentfuseConfig config, GatewayOptions options,
                          Optional<BreakerStateStore> stateStore, BudgetLedger budgets) {
        this.stateStore = stateStore;
        this.budgets = budgets;
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
                .withLimits(limits.maxUpstreamBody(), (int) limits.maxSseEvent(), limits.clientWriteTimeout())
                .withEgress(config.server().egress()));
        metrics.watchBreakers(runtime.registry());
        metrics.declareModels(config.models().values());
        runtime.onFamilyModelDropped(metrics::forgetModel);
        runtime.registry().addListener(new TransitionLog());
        runtime.registry().addListener(transitions);
        this.events = new BreakerEventStream(vertx, runtime.registry(), (int) limits.maxEventQueue());
        this.contextWorkers = vertx.createSharedWorkerExecutor(CONTEXT_POOL, CONTEXT_THREADS);
        ContextStage.Factory context = options.contextStage() != null ? options.contextStage()
                : ContextLadderStage.factory(Clock.system(), new VertxScheduler(vertx), onWorkers(contextWorkers), metrics);
        this.tracing = Tracing.start(config.observability(), System.getenv());
        ClientKeys clients = new ClientKeys(runtime::config);
        this.pipeline = new ChatPipeline(runtime, upstream, metrics, Clock.system(), context, tracing, budgets, clients);
        this.host = options.host();
        // Under clients:, an MCP session belongs to the client (by name, whichever header carries its key).
        this.mcp = McpProxy.forServer(vertx, runtime, metrics, config.server(),
                CallerIdentity.byClientNameOrCredentials(clients::clientName), tracing);
        this.reloader = new ConfigReloader(vertx, runtime, metrics, options.configFile());
        this.routes = new GatewayRoutes(runtime, pipeline, mcp, reloader, events, metrics, readiness, transitions,
                new BudgetAdminHandler(runtime::config, budgets, Clock.system(), () -> runtime.config().server().adminToken()),
                clients);
    }

    /** Starts a gateway for {@code config} with {@link GatewayOptions#defaults()}. */
    public static Future<GatewayServer> start(Vertx vertx, AgentfuseConfig config) {
        return start(vertx, config, GatewayOptions.defaults());
    }

    /**
     * Starts a gateway for {@code config}; the future fails if the port cannot be bound, or if a
     * Vert.x internal the gateway reaches for is missing ({@link VertxHookCheck}). With
     * {@code state.store: redis} it starts whether or not Redis answers yet.
     */
    public static Future<GatewayServer> start(Vertx vertx, AgentfuseConfig config, GatewayOptions options) {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(options, "options");
        return VertxHookCheck.verify(vertx).compose(checked -> startChecked(vertx, config, options));
    }

    private static Future<GatewayServer> startChecked(Vertx vertx, AgentfuseConfig config, GatewayOptions options) {
        GatewayServer gateway;
        Optional<BreakerStateStore> stateStore = StateStores.open(config.state());
        BudgetLedger budgets = StateStores.budgetLedger(config.state(), Clock.system());
        try {
            gateway = new GatewayServer(vertx, config, options, stateStore, budgets);
        } catch (RuntimeException e) {
            stateStore.ifPresent(BreakerStateStore::close);
            budgets.close();
            return Future.failedFuture(e);
        }
        int port = options.port() != null ? options.port() : config.server().port();
        BodyAllowance bodies = BodyAllowance.ofHeap();
        GatewayVerticle.Shared shared = new GatewayVerticle.Shared(vertx, config.server(), options.host(), bodies,
                gateway.readiness, instanceVertx -> gateway.routes.endpoints(instanceVertx, config.server().maxBodySize(), bodies));
        return gateway.deploy(shared, port, config.server().eventLoops())
                .map(ignored -> {
                    gateway.reloader.watch();
                    gateway.readiness.serving();
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
        return vertx.deployVerticle(() -> {
            GatewayVerticle verticle = new GatewayVerticle(shared, listenPort);
            servers.add(verticle);
            return verticle;
        }, new DeploymentOptions().setInstances(instances)).map(id -> {
            deployments.add(id);
            port = servers.get(0).actualPort();
            return null;
        });
    }

    private static Executor onWorkers(WorkerExecutor workers) {
        return task -> workers.executeBlocking(() -> {
            task.run();
            return null;
        }, false);
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

    /** Where the gateway's budgets are counted: this process's memory, or the fleet's Redis. */
    public BudgetLedger budgetLedger() {
        return budgets;
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

    /** Whether the gateway is starting, serving or draining ({@code GET /readyz}). */
    public Readiness.State readiness() {
        return readiness.state();
    }

    /**
     * Stops the way a rolling deploy needs (docs/design.md §14, {@link GracefulShutdown}): {@code /readyz}
     * answers 503 at once, new connections are still served for {@code server.drainDelay}, then the
     * listener closes and the requests in flight have {@code server.shutdownGrace} to finish; those
     * still running then are answered ({@code shutting_down}; a stream with its dialect's error
     * event). Then {@link #close()}. The two durations are those in force when the stop comes.
     */
    public Future<Void> shutDown() {
        reloader.close();
        GatewayException leaving = new GatewayException(GatewayError.SHUTTING_DOWN,
                "the gateway is shutting down and the request did not finish within server.shutdownGrace; retry it");
        // An MCP call whose server connection closes is answered with that failure.
        GracefulShutdown.Steps steps = GracefulShutdown.Steps.of(events::close,
                () -> Future.join(pipeline.cutShortInFlight(leaving), mcp.close()).mapEmpty());
        return new GracefulShutdown(vertx, readiness, servers, steps).run(runtime.config().server().shutdown())
                .transform(ignored -> close());
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
        budgets.close();
        // Exporting the last spans blocks (the SDK's own HTTP client): not on an event loop.
        Future<Void> traces = vertx.executeBlocking(() -> {
            tracing.close();
            return null;
        }, false);
        return Future.join(upstream.close(), mcp.close(), traces).eventually(contextWorkers::close).mapEmpty();
    }
}
