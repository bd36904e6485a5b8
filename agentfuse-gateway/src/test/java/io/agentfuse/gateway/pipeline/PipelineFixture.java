package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.Clock;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.internal.VertxScheduler;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.upstream.UpstreamClient;
import io.agentfuse.gateway.upstream.UpstreamClientOptions;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.List;
import java.util.Map;

/**
 * The pieces one pipeline class needs, without a {@code GatewayServer}: a real mock provider on
 * loopback, the runtime of {@link GatewayHarness#CONFIG} pointed at it, one upstream client, and
 * — for classes that answer HTTP themselves — a bare server whose only handler is the one under test.
 */
final class PipelineFixture implements AutoCloseable {

    final Vertx vertx = GatewayVertx.create();
    final MockProvider mock = Await.result(MockProvider.start(vertx, 0));
    final AgentfuseRuntime runtime;
    final UpstreamClient client = new UpstreamClient(vertx, UpstreamClientOptions.defaults());
    final GatewayMetrics metrics;
    final ModelRouter router;
    final ChainExecution chains;
    private HttpServer server;

    PipelineFixture() {
        this(GatewayHarness.CONFIG);
    }

    PipelineFixture(String yaml) {
        AgentfuseConfig config = ConfigLoader.parse(yaml, "test.yaml", Map.of("MOCK_PORT", Integer.toString(mock.port())));
        runtime = AgentfuseRuntime.builder(config).scheduler(new VertxScheduler(vertx)).tokens(ChatPipeline.TOKENS).build();
        metrics = new GatewayMetrics(runtime.registry());
        router = new ModelRouter(runtime, List.of());
        chains = new ChainExecution(client, metrics);
    }

    /** {@code body}, of {@code dialect}, as the request the pipeline routes. */
    ModelRequest request(Dialect dialect, JsonObject body, String subagent) {
        return RequestParser.parse(dialect, body.toBuffer(), subagent, runtime.config(), runtime::model);
    }

    /** The planned chain for {@code request}. */
    Plan plan(ModelRequest request) {
        return router.plan(request, MultiMap.caseInsensitiveMultiMap());
    }

    /** The stages an exchange runs through, with {@code context} as its context stage. */
    ExchangeStages stages(ContextStage context) {
        return new ExchangeStages(runtime::config, context, new SubagentLimit(runtime), router, chains, metrics,
                Clock.system());
    }

    /** Serves every POST with {@code handler} (after reading the body); a client for it. */
    GatewayClient serve(Handler<RoutingContext> handler) {
        Router routes = Router.router(vertx);
        routes.post().handler(BodyHandler.create(false)).handler(handler);
        server = Await.result(vertx.createHttpServer().requestHandler(routes).listen(0, "127.0.0.1"));
        return new GatewayClient(vertx, server.actualPort());
    }

    @Override
    public void close() {
        Await.result(client.close());
        Await.result(vertx.close());
    }
}
