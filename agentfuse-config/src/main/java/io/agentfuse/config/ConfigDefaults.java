package io.agentfuse.config;

import io.agentfuse.agent.permission.PermissionScope;
import io.agentfuse.config.BreakerConfig.ConsecutiveTimeouts;
import io.agentfuse.config.BreakerConfig.FailureRate;
import io.agentfuse.config.BreakerConfig.SlowCallRate;
import io.agentfuse.config.BreakerConfig.TokenOveruse;
import io.agentfuse.config.BreakerConfig.Window;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.budget.BudgetOnLoss;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every default of the configuration, in one place. A key left out of the file takes the value
 * here; the numbers marked <em>seed</em> come from the seed documents, the rest from docs/design.md §6.
 *
 * <p>Trigger templates ({@link #CONSECUTIVE_TIMEOUTS}, {@link #SLOW_CALL_RATE}, ...) fill the
 * keys a trigger map leaves out, whether or not that trigger is on by default.
 *
 * <p>The defaults that core's builders also have (the seed's triggers, {@code resetTimeout},
 * {@code halfOpenRequests}, the retry timeline) are not written again here: they are read from
 * {@link Trigger#defaults()}, {@link CircuitBreakerConfig#defaults()} and
 * {@link RetryPolicy#defaults()}, so a file that leaves them out gets exactly what a library
 * user gets with no options.
 *
 * <pre>{@code
 * Duration open = ConfigDefaults.MODEL_BREAKER.resetTimeout(); // 5 minutes (seed)
 * }</pre>
 */
public final class ConfigDefaults {

    /** 1 MB, as sizes are counted: 1024 × 1024 bytes. */
    private static final long MEGABYTE = 1024L * 1024L;

    /**
     * {@code server:} limits of docs/design.md §7: the request must arrive within 30 s, idle connections
     * close after 75 s, 10 000 connections and 10 000 messages, provider answers up to 32 MB and
     * their events up to 8 MB, 30 s for a caller to read on, 1 MB queued per event subscriber.
     */
    public static final ServerConfig.Limits SERVER_LIMITS = new ServerConfig.Limits(Duration.ofSeconds(30),
            Duration.ofSeconds(75), 10_000, 10_000, 32 * MEGABYTE, 8 * MEGABYTE, Duration.ofSeconds(30), MEGABYTE);

    /**
     * {@code server:} a stop drains for 5 s ({@code drainDelay}: long enough for a load balancer's
     * readiness probe, every few seconds, to see the 503), then gives requests in flight 30 s
     * ({@code shutdownGrace}: Kubernetes' default termination grace, and the client write timeout).
     */
    public static final ServerConfig.Shutdown SERVER_SHUTDOWN =
            new ServerConfig.Shutdown(Duration.ofSeconds(5), Duration.ofSeconds(30));

    /**
     * {@code server:} port 8787, bodies up to 10 MB, no admin token (read-only admin API), one
     * event loop per core, the best transport that loads, {@link #SERVER_LIMITS}, loopback hosts
     * only, no cross-origin callers, {@link #SERVER_SHUTDOWN}.
     */
    public static final ServerConfig SERVER = new ServerConfig(8787, 10 * MEGABYTE, "",
            Runtime.getRuntime().availableProcessors(), ServerConfig.Transport.AUTO, SERVER_LIMITS, List.of(),
            new ServerConfig.Cors(List.of()), SERVER_SHUTDOWN);

    /**
     * {@code state:} in memory; Redis on 127.0.0.1:6379 with key prefix {@code agentfuse:}, budgets
     * spending a share of what was left while it is away, 250 ms waits for Redis's budget answers and
     * for another instance's probe result (the fleet store's own default).
     */
    public static final StateConfig STATE = new StateConfig(StateConfig.Store.MEMORY,
            new StateConfig.Redis("redis://127.0.0.1:6379", "agentfuse:", BudgetOnLoss.SHARE, Duration.ofMillis(250),
                    Duration.ofMillis(250)));

    /** {@code state.redis.budgetWait}: 250 ms. */
    public static final Duration BUDGET_WAIT = STATE.redis().budgetWait();

    /** {@code state.redis.probeResultWait}: 250 ms. */
    public static final Duration PROBE_RESULT_WAIT = STATE.redis().probeResultWait();

    /**
     * How long a breaker's fleet probe lease lasts: its {@code probeTimeout}, which every breaker the
     * configuration makes keeps at the core's default (2 minutes). The most {@code probeResultWait}
     * may be: a wait past it would outlast the probe it waits for.
     */
    public static final Duration PROBE_LEASE = CircuitBreakerConfig.defaults().probeTimeout();

    /** {@code budgets.*.window}: one day, from UTC midnight. */
    public static final Duration BUDGET_WINDOW = Duration.ofDays(1);

    /** {@code observability:} no OTLP endpoint: traces are off unless the {@code OTEL_*} variables ask for them. */
    public static final ObservabilityConfig OBSERVABILITY = new ObservabilityConfig(Optional.empty());

    /** {@code retry:} 4 attempts, waits of 2 s, 4 s, 8 s (seed), capped at 30 s; budget 20 %, 10/s, 10 s. */
    public static final RetryConfig RETRY = retryDefaults(new RetryConfig.Budget(0.20, 10, Duration.ofSeconds(10)));

    /** Trigger template: 3 calls in a row slower than 60 s (seed). */
    public static final ConsecutiveTimeouts CONSECUTIVE_TIMEOUTS = new ConsecutiveTimeouts(
            seed(Trigger.ConsecutiveTimeouts.class).count(), seed(Trigger.ConsecutiveTimeouts.class).slowerThan());
    /** Trigger template: 5 failures in a row (seed). */
    public static final int CONSECUTIVE_ERRORS = seed(Trigger.ConsecutiveErrors.class).count();
    /** Trigger template: 3 server errors in a row, "tool unavailable" (seed). */
    public static final int CONSECUTIVE_5XX = seed(Trigger.Consecutive5xx.class).count();
    /** Trigger template: 2 rate-limit answers in a row, "model overload" (seed). */
    public static final int CONSECUTIVE_429 = seed(Trigger.Consecutive429.class).count();
    /** Trigger template: one call over 50 000 tokens (seed). */
    public static final TokenOveruse TOKEN_OVERUSE = new TokenOveruse(
            seed(Trigger.TokenOveruse.class).maxTokensPerCall(), seed(Trigger.TokenOveruse.class).afterCalls());
    /** Trigger template: more than 50 % failures over the last 20 calls, judged from 10 calls. */
    public static final FailureRate FAILURE_RATE = new FailureRate(
            new Window.Calls(seed(Trigger.FailureRate.class).window().calls()),
            seed(Trigger.FailureRate.class).minCalls(), seed(Trigger.FailureRate.class).threshold());
    /** Trigger template (off unless configured): more than 50 % of 20 calls slower than 60 s. */
    public static final SlowCallRate SLOW_CALL_RATE =
            new SlowCallRate(new Window.Calls(20), 10, 0.5, Duration.ofSeconds(60));
    /** An open breaker waits 5 minutes before a probe (seed). */
    public static final Duration RESET_TIMEOUT = CircuitBreakerConfig.defaults().resetTimeout();
    /** One probe when half open (seed). */
    public static final int HALF_OPEN_REQUESTS = CircuitBreakerConfig.defaults().halfOpenRequests();

    /** A model's breaker: every trigger of docs/design.md §3 on except {@code slowCallRate}. */
    public static final BreakerConfig MODEL_BREAKER = new BreakerConfig(Optional.of(CONSECUTIVE_TIMEOUTS),
            OptionalInt.of(CONSECUTIVE_ERRORS), OptionalInt.of(CONSECUTIVE_5XX), OptionalInt.of(CONSECUTIVE_429),
            Optional.of(TOKEN_OVERUSE), Optional.of(FAILURE_RATE), Optional.empty(), RESET_TIMEOUT,
            HALF_OPEN_REQUESTS);
    /** The name of the breaker a model uses when it names none; it exists even if not written. */
    public static final String DEFAULT_BREAKER_NAME = "default";

    /** A tool's breaker: 5 failures in a row (the seed's {@code failureThreshold || 5}), 5 minutes, 1 probe. */
    public static final BreakerConfig TOOL_BREAKER = consecutiveFailuresBreaker(5);
    /** An MCP tool's breaker: 3 failures in a row, as in the seed's MCP server story. */
    public static final BreakerConfig MCP_TOOL_BREAKER = consecutiveFailuresBreaker(3);

    /** A tool outside MCP servers: 30 s (seed), 2 retries, {@link #TOOL_BREAKER}. */
    public static final ToolConfig TOOL = new ToolConfig(Duration.ofSeconds(30), 2, TOOL_BREAKER);
    /** A tool of an MCP server: 30 s, 2 retries, {@link #MCP_TOOL_BREAKER}. */
    public static final ToolConfig MCP_TOOL = new ToolConfig(Duration.ofSeconds(30), 2, MCP_TOOL_BREAKER);

    /** {@code models.*.contextWindow}: 200 000 tokens. */
    public static final int MODEL_CONTEXT_WINDOW = 200_000;
    /** {@code models.*.timeout}: 60 s. */
    public static final Duration MODEL_TIMEOUT = Duration.ofSeconds(60);
    /** {@code models.*.firstTokenTimeout}: 20 s. */
    public static final Duration MODEL_FIRST_TOKEN_TIMEOUT = Duration.ofSeconds(20);
    /** {@code models.*.streamIdleTimeout}: 60 s. */
    public static final Duration MODEL_STREAM_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** {@code models.*.translate}: strict. */
    public static final ModelConfig.Translate MODEL_TRANSLATE = ModelConfig.Translate.STRICT;
    /** {@code models.*.maxConcurrent}: 64. */
    public static final int MODEL_MAX_CONCURRENT = 64;
    /** {@code models.*.hedge} when written without keys: after the model's recent p95, for at most 10 % of requests. */
    public static final HedgeConfig HEDGE = HedgeConfig.afterQuantile(0.95, 0.10);
    /**
     * How many models of the built-in families without an entry under {@code models:} one
     * configuration serves ({@link ModelFamilies}): each has a breaker, a guard and metrics of its
     * own, so that a client inventing names cannot grow them without end.
     */
    public static final int UNCONFIGURED_FAMILY_MODELS = 32;

    /**
     * {@code subagents:} 5 at a time, 120 s each, falling back to {@code claude-haiku-4}, then
     * {@code gpt-4o-mini}, then giving up (the seed's, and docs/design.md §6's defaults).
     */
    public static final SubagentsConfig SUBAGENTS = new SubagentsConfig(5, Duration.ofSeconds(120),
            List.of("claude-haiku-4", "gpt-4o-mini"));

    /** The model that writes summaries when {@code context.compactModel} is not given. */
    public static final String COMPACT_MODEL = "claude-haiku-4";
    /** {@code context:} the seed's ladder 70 / 80 / 92 / 95 %, nothing reserved, keep 6 turns. */
    public static final ContextBudgetConfig CONTEXT =
            new ContextBudgetConfig(0.70, 0.80, 0.92, 0.95, 0, Optional.of(COMPACT_MODEL), 6);

    /** {@code permissions:} 3 denials in a row (seed), 20 in a session, per category, user-led reset. */
    public static final PermissionsConfig PERMISSIONS =
            new PermissionsConfig(3, 20, PermissionScope.CATEGORY, Optional.empty(), false);

    private ConfigDefaults() {
    }

    /** The provider types that exist as providers of their own name whether or not {@code providers:} names them. */
    public static final List<ProviderConfig.Type> BUILT_IN_PROVIDERS =
            List.of(ProviderConfig.Type.ANTHROPIC, ProviderConfig.Type.OPENAI, ProviderConfig.Type.GEMINI);

    /** {@code location} of a {@code vertex} provider that leaves it out: the global endpoint serves Gemini and Claude models. */
    public static final String VERTEX_LOCATION = "global";

    /** The variable a {@code vertex} provider's {@code credentials} defaults to. */
    public static final String GOOGLE_CREDENTIALS_VARIABLE = "GOOGLE_APPLICATION_CREDENTIALS";

    /**
     * The built-in providers, {@code anthropic}, {@code openai} and {@code gemini}, at their public
     * endpoints with their conventional API-key variables ({@code ANTHROPIC_API_KEY},
     * {@code OPENAI_API_KEY}, {@code GEMINI_API_KEY}), empty when unset. They exist whether or not
     * {@code providers:} names them.
     */
    public static Map<String, ProviderConfig> builtInProviders(Map<String, String> environment) {
        Map<String, ProviderConfig> providers = new LinkedHashMap<>();
        for (ProviderConfig.Type type : BUILT_IN_PROVIDERS) {
            String name = type.name().toLowerCase(Locale.ROOT);
            URI baseUrl = baseUrl(type, ProviderConfig.Cloud.NONE).orElseThrow();
            providers.put(name, new ProviderConfig(name, type, baseUrl, apiKey(type, environment)));
        }
        return providers;
    }

    /** The variable {@code server.adminToken} defaults to, as {@code ${AGENTFUSE_ADMIN_TOKEN:-}} would. */
    public static final String ADMIN_TOKEN_VARIABLE = "AGENTFUSE_ADMIN_TOKEN";

    /** The admin token when {@code server.adminToken} is left out: {@value #ADMIN_TOKEN_VARIABLE}, empty when unset. */
    public static String adminToken(Map<String, String> environment) {
        return environment.getOrDefault(ADMIN_TOKEN_VARIABLE, "");
    }

    /**
     * The API key of a provider of {@code type} whose entry leaves {@code apiKey} out: the type's
     * conventional variable ({@code ANTHROPIC_API_KEY}, {@code OPENAI_API_KEY}, {@code GEMINI_API_KEY},
     * {@code AZURE_OPENAI_API_KEY}), empty when unset; none for {@code bedrock} (SigV4-signed) and
     * {@code vertex} (OAuth2 tokens).
     */
    public static String apiKey(ProviderConfig.Type type, Map<String, String> environment) {
        return apiKeyVariable(type).map(variable -> environment.getOrDefault(variable, "")).orElse("");
    }

    /** The variable {@link #apiKey} reads for a provider of {@code type}; none for {@code bedrock} and {@code vertex}. */
    public static Optional<String> apiKeyVariable(ProviderConfig.Type type) {
        return switch (type) {
            case BEDROCK, VERTEX -> Optional.empty();
            case AZURE -> Optional.of("AZURE_OPENAI_API_KEY");
            default -> Optional.of(type.name() + "_API_KEY");
        };
    }

    /**
     * The public endpoint of a provider type, used when {@code baseUrl} is left out: Bedrock's
     * runtime endpoint of {@code cloud}'s region, Vertex AI's of its location; empty for
     * {@code azure} (each resource has its own) and for a Bedrock provider without a region.
     */
    public static Optional<URI> baseUrl(ProviderConfig.Type type, ProviderConfig.Cloud cloud) {
        return switch (type) {
            case ANTHROPIC -> Optional.of(URI.create("https://api.anthropic.com"));
            case OPENAI -> Optional.of(URI.create("https://api.openai.com/v1"));
            case GEMINI -> Optional.of(URI.create("https://generativelanguage.googleapis.com"));
            case AZURE -> Optional.empty();
            case BEDROCK -> cloud.region().isEmpty() ? Optional.empty()
                    : Optional.of(URI.create("https://bedrock-runtime." + cloud.region() + ".amazonaws.com"));
            case VERTEX -> {
                String location = cloud.location().isEmpty() ? VERTEX_LOCATION : cloud.location();
                yield Optional.of(URI.create("global".equals(location) ? "https://aiplatform.googleapis.com"
                        : "https://" + location + "-aiplatform.googleapis.com"));
            }
        };
    }

    /** The seed's trigger of {@code type} among core's {@link Trigger#defaults()}. */
    private static <T extends Trigger> T seed(Class<T> type) {
        return Trigger.defaults().stream().filter(type::isInstance).map(type::cast).findFirst()
                .orElseThrow(() -> new IllegalStateException("core's default triggers have no " + type.getSimpleName()));
    }

    /** Core's retry defaults (the seed's 4 attempts, 2 s doubling), with the fleet budget that only the gateway sets. */
    private static RetryConfig retryDefaults(RetryConfig.Budget budget) {
        RetryPolicy core = RetryPolicy.defaults();
        return new RetryConfig(core.maxAttempts(), core.initialDelay(), core.multiplier(), core.maxDelay(),
                core.jitter(), core.honorRetryAfter(), budget);
    }

    private static BreakerConfig consecutiveFailuresBreaker(int failures) {
        return new BreakerConfig(Optional.empty(), OptionalInt.of(failures), OptionalInt.empty(), OptionalInt.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), RESET_TIMEOUT, HALF_OPEN_REQUESTS);
    }
}
