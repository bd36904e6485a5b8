package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.gateway.budget.ClientKeys;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.tracing.Tracing;
import io.agentfuse.gateway.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * The gateway's model-request pipeline, as small steps that can each be tested alone:
 *
 * <pre>
 *   client key → parse ({@link RequestParser}) → budget ({@code BudgetStage}) → context budget
 *   ({@link ContextStage}) → subagent limits → route ({@code ModelRouter}) → guard + upstream
 *   ({@code ChainExecution}) → respond ({@code CompleteResponder}, {@code StreamRelay}, {@code FailureResponder})
 * </pre>
 *
 * {@link #handler(Dialect)} is the Vert.x handler for one dialect's endpoint; it expects the body
 * read already (a {@code BodyHandler} before it). {@link #models()} runs the same chain for the
 * gateway's own calls. Thread-safe: one pipeline serves every request.
 *
 * <pre>{@code
 * AgentfuseRuntime runtime = AgentfuseRuntime.builder(config).tokens(ChatPipeline.TOKENS).build();
 * ChatPipeline pipeline = new ChatPipeline(runtime, upstreamClient, metrics, Clock.system(), null);
 * router.post("/v1/messages").handler(BodyHandler.create()).handler(pipeline.handler(Dialects.ANTHROPIC));
 * }</pre>
 */
public final class ChatPipeline {

    /**
     * How many tokens a guarded model call used, for the {@code tokenOveruse} trigger: build the
     * runtime with {@code AgentfuseRuntime.builder(config).tokens(ChatPipeline.TOKENS)}. A complete
     * answer counts its reported usage; a stream counts when it ends (see {@code StreamRelay}).
     */
    public static final ToLongFunction<Object> TOKENS = StepAnswer::tokensOf;

    private final ModelClient models;
    private final ExchangeStages stages;

    /**
     * @param runtime      guards, breakers and the configuration in force; built with {@link #TOKENS}
     * @param client       the one pooled client for every provider call
     * @param metrics      where requests and attempts are counted
     * @param clock        stamps translated answers
     * @param contextStage builds the context-budget step; {@code null} for {@link ContextStage#NONE}
     */
    public ChatPipeline(AgentfuseRuntime runtime, UpstreamClient client, GatewayMetrics metrics, Clock clock,
                        ContextStage.Factory contextStage) {
        this(runtime, client, metrics, clock, contextStage, Tracing.OFF, new LocalBudgetLedger(clock),
                new ClientKeys(runtime::config));
    }

    /**
     * A pipeline whose requests are traced by {@code tracing}, whose budgets count in {@code budgets}
     * and whose callers are told by {@code clients}.
     *
     * @param tracing where each request's trace goes: a span per request, one per upstream attempt
     * @param budgets where budgets are counted: this process's memory, or the fleet's Redis
     * @param clients who a request comes from ({@code clients:}), shared with the rest of the gateway
     */
    public ChatPipeline(AgentfuseRuntime runtime, UpstreamClient client, GatewayMetrics metrics, Clock clock,
                        ContextStage.Factory contextStage, Tracing tracing, BudgetLedger budgets, ClientKeys clients) {
        Objects.requireNonNull(runtime, "runtime");
        ModelRouter router = new ModelRouter(runtime, Objects.requireNonNull(client, "client").proxySecrets());
        ChainExecution chains = new ChainExecution(client, metrics);
        this.models = new GuardedModelClient(router, chains, clock);
        ContextStage context = contextStage == null ? ContextStage.NONE
                : Objects.requireNonNull(contextStage.create(runtime, models), "the context stage factory returned null");
        BudgetStage budgetStage = new BudgetStage(runtime::config, router.models(), budgets, clients, context, clock);
        this.stages = new ExchangeStages(runtime::config, context, new SubagentLimit(runtime), router, chains, metrics,
                clock, new InFlightExchanges(), Objects.requireNonNull(tracing, "tracing"), budgetStage);
    }

    /** The handler of {@code POST} {@link Dialect#path()} for {@code dialect}, behind a body handler. */
    public Handler<RoutingContext> handler(Dialect dialect) {
        Objects.requireNonNull(dialect, "dialect");
        return ctx -> serve(dialect, ctx.request(), ctx.body().buffer());
    }

    /**
     * Serves {@code request}, a {@code POST} on {@code dialect}'s path whose body has arrived,
     * without a router: the exchange owns the response's end and close handlers from here on.
     */
    public void serve(Dialect dialect, HttpServerRequest request, Buffer body) {
        new ChatExchange(request, dialect, stages).run(body);
    }

    /**
     * Ends every model request still under way with {@code reason} (a stopping gateway whose
     * {@code server.shutdownGrace} is over): one not answered yet gets it as its error answer, a
     * stream under way as its dialect's error event; completes when every event loop has done so.
     */
    public Future<Void> cutShortInFlight(GatewayException reason) {
        return stages.inFlight().cutShort(Objects.requireNonNull(reason, "reason"));
    }

    /** Complete model calls through the same guarded chains, for the gateway's own use. */
    public ModelClient models() {
        return models;
    }

}
