package io.agentfuse.gateway.metrics;

import io.agentfuse.core.Clock;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.agent.context.CompactionReport;
import io.agentfuse.agent.context.CompactionStrategy;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.SummaryOutcome;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.metrics.AgentfuseBreakerMetrics;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.core.event.RetryListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's metrics, in a Micrometer Prometheus registry served at {@code GET /metrics}:
 * <ul>
 *   <li>{@code agentfuse_requests_total{model, dialect, status}} — answered model requests;</li>
 *   <li>{@code agentfuse_request_duration_seconds{model, dialect}} — their latency (a timer);</li>
 *   <li>{@code agentfuse_upstream_attempts_total{model, outcome}} — every call to a provider, by
 *       {@link Outcome};</li>
 *   <li>{@code agentfuse_fallbacks_total{from, to, reason}} — steps passed over (skipped or failed), and where
 *       the chain went next ({@code none}: nowhere);</li>
 *   <li>{@code agentfuse_stream_interruptions_total{model}} — streams that broke after their first byte;</li>
 *   <li>{@code agentfuse_mcp_tool_calls_total{server, tool, outcome}} — {@code tools/call} requests through the MCP proxy;</li>
 *   <li>{@code agentfuse_retry_attempts_total{name}}, {@code agentfuse_retry_budget_refused_total{name}} — retries
 *       the guards scheduled, and those the retry budget refused ({@link #retryListener()});</li>
 *   <li>{@code agentfuse_context_level_total{model, level}}, {@code agentfuse_compactions_total{model, result}} — the
 *       context ladder's levels and compactions ({@code summarized}, {@code rolled_back}, {@code snipped});</li>
 *   <li>the GenAI model-call meters {@code gen_ai_client_operation_duration_seconds},
 *       {@code gen_ai_server_time_to_first_token_seconds} and {@code gen_ai_client_token_usage} (see {@link GenAiMeters});</li>
 *   <li>{@code agentfuse_config_reloads_total{result}} — reloads of the configuration file, {@code ok} or {@code failed}
 *       (alert on {@code failed}: the file on disk is not what runs);</li>
 *   <li>the breakers' own meters, {@code agentfuse_breaker_state{name, state}}, {@code agentfuse_breaker_calls_total},
 *       {@code agentfuse_breaker_not_permitted_calls_total} and {@code agentfuse_breaker_transitions_total}
 *       (see {@link AgentfuseBreakerMetrics}).</li>
 * </ul>
 * The counters alerts are written on start at zero rather than with their first event (a series
 * that appears at 1 shows no {@code increase()}, so the first failure would pass unseen): both
 * {@code agentfuse_config_reloads_total} results from the start, and for every configured model
 * ({@link #declareModels}) its upstream attempts by outcome, its context levels, its stream
 * interruptions, its guard's retries and refused retries, and its compactions by result.
 * Answered requests, failed provider calls and fallbacks are also counted second by second for the
 * last five minutes ({@link #recentTraffic()}, what the dashboard draws).
 * The {@code model} tag only ever holds the names of served models ({@code unknown} otherwise):
 * the configured ones, and the models of built-in families the runtime serves without an entry, of
 * which it keeps a bounded number at once; when it drops one, its series go too
 * ({@link #forgetModel}), so callers cannot grow the number of series.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * GatewayMetrics metrics = new GatewayMetrics(runtime.registry());
 * metrics.upstreamAttempt("claude-sonnet-4", Outcome.SERVER_ERROR);
 * String text = metrics.scrape();
 * }</pre>
 */
public final class GatewayMetrics {

    /** The {@code model} tag of requests that named no configured model. */
    public static final String UNKNOWN_MODEL = "unknown";

    /** The {@code to} tag of a fallback that had no step left to go on to. */
    public static final String NO_STEP = "none";

    // The results of agentfuse_compactions_total.
    private static final String SUMMARIZED = "summarized";
    private static final String ROLLED_BACK = "rolled_back";
    private static final String SNIPPED = "snipped";

    private final PrometheusMeterRegistry registry;
    private volatile boolean breakersWatched;
    private final GenAiMeters genAi;
    private final RetryListener retryMeters = new RetryListener() {
        @Override
        public void onRetryScheduled(String guard, int nextAttempt, long delayNanos, Throwable cause) {
            retryAttempts(guard).increment();
        }

        @Override
        public void onRetryRefusedByBudget(String guard, int attempts, Throwable last) {
            retryBudgetRefused(guard).increment();
        }
    };
    private final RegisteredMeters meters;
    private final Map<String, ModelMeters> models = new ConcurrentHashMap<>();
    private final RecentTraffic recentTraffic;

    /** Metrics without breakers yet, on the system clock; see {@link #watchBreakers}. */
    public GatewayMetrics() {
        this(Clock.system());
    }

    /**
     * Metrics without breakers yet on {@code clock}: {@link #recentTraffic()} counts its seconds and
     * the meters' max windows rotate by it.
     */
    public GatewayMetrics(Clock clock) {
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), new MeterClock(clock));
        this.meters = new RegisteredMeters(registry);
        this.genAi = new GenAiMeters(registry);
        this.recentTraffic = new RecentTraffic(clock);
        configReloads(true);
        configReloads(false);
    }

    /** Metrics that also report every breaker of {@code breakers}. */
    public GatewayMetrics(CircuitBreakerRegistry breakers) {
        this();
        watchBreakers(breakers);
    }

    /** Reports every breaker of {@code breakers} from now on (once; the runtime is made after its retry listener). */
    public void watchBreakers(CircuitBreakerRegistry breakers) {
        if (breakersWatched) {
            throw new IllegalStateException("the breakers are watched already");
        }
        breakersWatched = true;
        new AgentfuseBreakerMetrics(Objects.requireNonNull(breakers, "breakers")).bindTo(registry);
    }

    /**
     * The listener that counts {@code agentfuse_retry_attempts_total{name}} and
     * {@code agentfuse_retry_budget_refused_total{name}}: give it to the runtime's guards.
     */
    public RetryListener retryListener() {
        return retryMeters;
    }

    /** Records one answered model request. */
    public void request(String model, String dialect, int status, long durationNanos) {
        ModelMeters.Answers answers = modelMeters(model).answers(dialect);
        answers.count(status).increment();
        answers.duration.record(durationNanos, TimeUnit.NANOSECONDS);
        recentTraffic.record(status, durationNanos);
    }

    /** The requests answered over the last five minutes, second by second. */
    public RecentTraffic recentTraffic() {
        return recentTraffic;
    }

    /** Records one call to a provider for {@code model} that ended as {@code outcome}. */
    public void upstreamAttempt(String model, Outcome outcome) {
        modelMeters(model).attempt(outcome).increment();
        if (outcome != Outcome.SUCCESS && outcome != Outcome.CLIENT_ERROR) {
            recentTraffic.upstreamFailure();
        }
    }

    /**
     * Records that the step {@code from} was passed over for {@code reason} (e.g. circuit_open) and
     * the chain went on to {@code to} ({@link #NO_STEP} when it ended there).
     */
    public void fallback(String from, String to, String reason) {
        meters.counter("agentfuse.fallbacks", "Fallback steps passed over", "from", from, "to", to, "reason", reason).increment();
        recentTraffic.fallback();
    }

    /**
     * Starts the per-model counters alerts are written on at zero for each of {@code models} (the
     * configured ones: at start and after each reload; those of removed models stay): its calls to
     * its provider by outcome, the context-ladder levels its requests arrive at, its stream
     * interruptions, its guard's retries and the retries its budget refused, and its compactions
     * by result (a {@code rolled_back} one is a summary that failed).
     */
    public void declareModels(Collection<ModelConfig> models) {
        for (ModelConfig model : models) {
            ModelMeters perModel = modelMeters(model.name());
            for (Outcome outcome : Outcome.values()) {
                perModel.attempt(outcome);
            }
            for (ContextLevel level : ContextLevel.values()) {
                perModel.level(level);
            }
            streamInterruptions(model.name());
            retryAttempts(model.breakerId());
            retryBudgetRefused(model.breakerId());
            for (String result : List.of(SUMMARIZED, ROLLED_BACK, SNIPPED)) {
                compactions(model.name(), result);
            }
        }
    }

    /**
     * Removes the series of {@code model}, no longer served (a family model whose breaker was
     * dropped): those tagged with its name or its guard's, and its model-call meters. A configured
     * model with the same upstream model starts its GenAI meters afresh, which a rate reads as a reset.
     */
    public void forgetModel(ModelConfig model) {
        models.remove(model.name());
        genAi.forget(model.provider(), model.upstreamModel());
        meters.removeTagged(Map.of("model", model.name(), "from", model.name(), "to", model.name(),
                "name", model.breakerId(), "gen_ai.request.model", model.upstreamModel()));
    }

    private Counter retryAttempts(String guard) {
        return meters.counter("agentfuse.retry.attempts", "Retries scheduled by the guards", "name", guard);
    }

    private Counter retryBudgetRefused(String guard) {
        return meters.counter("agentfuse.retry.budget.refused", "Retries the shared retry budget refused", "name", guard);
    }

    /** Records a stream from {@code model} that broke after its first byte. */
    public void streamInterrupted(String model) {
        streamInterruptions(model).increment();
        recentTraffic.upstreamFailure();
    }

    private Counter streamInterruptions(String model) {
        return meters.counter("agentfuse.stream.interruptions", "Streams that failed after the first byte", "model", model);
    }

    /**
     * Records one {@code tools/call} through the MCP proxy that ended as {@code outcome}
     * ({@code success}, {@code is_error}, {@code rpc_error}, {@code circuit_open}, {@code timeout}, ...).
     * The caller bounds the {@code tool} values.
     */
    public void mcpToolCall(String server, String tool, String outcome) {
        meters.counter("agentfuse.mcp.tool.calls", "MCP tool calls through the proxy",
                "server", server, "tool", tool, "outcome", outcome).increment();
    }

    /**
     * Records one call to provider {@code provider} for upstream model {@code model} that took
     * {@code durationNanos} and answered with {@code usage}, or failed with {@code errorType} (an
     * {@link Outcome} name; {@code null} when it answered). See {@link GenAiMeters}.
     */
    public void modelCall(String provider, String model, long durationNanos, Usage usage, String errorType) {
        genAi.call(provider, model, durationNanos, errorType == null ? "none" : errorType, usage);
    }

    /** Records that a stream from {@code provider} for {@code model} sent its first event after {@code durationNanos}. */
    public void firstToken(String provider, String model, long durationNanos) {
        genAi.firstToken(provider, model, durationNanos);
    }

    /** Records the context-ladder level a request for {@code model} arrived at (REJECT: refused with 413). */
    public void contextLevel(String model, ContextLevel level) {
        modelMeters(model).level(level).increment();
    }

    /**
     * Records a compaction of a request for {@code model}: {@code summarized} (older turns replaced by
     * a summary), {@code rolled_back} (the summary failed, the original was kept and snipped instead)
     * or {@code snipped} (snipped without a summary).
     */
    public void compaction(String model, CompactionReport report) {
        String result = report.strategy() == CompactionStrategy.SUMMARY ? SUMMARIZED
                : report.summary() == SummaryOutcome.FAILED ? ROLLED_BACK : SNIPPED;
        compactions(model, result).increment();
    }

    private Counter compactions(String model, String result) {
        return meters.counter("agentfuse.compactions", "Compactions of requests by the context ladder", "model", model, "result", result);
    }

    /** Records a reload of the configuration file that was put in force ({@code ok}) or refused ({@code failed}). */
    public void configReload(boolean ok) {
        configReloads(ok).increment();
    }

    private Counter configReloads(boolean ok) {
        return meters.counter("agentfuse.config.reloads", "Reloads of the configuration file", "result", ok ? "ok" : "failed");
    }

    private ModelMeters modelMeters(String model) {
        ModelMeters found = models.get(model);
        return found != null ? found : models.computeIfAbsent(model, name -> new ModelMeters(name, meters));
    }

    /** The Prometheus text exposition of every metric. */
    public String scrape() {
        return registry.scrape();
    }

    /** The content type of {@link #scrape()}. */
    public String contentType() {
        return "text/plain; version=0.0.4; charset=utf-8";
    }
}
