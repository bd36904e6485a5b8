package io.agentfuse.config;

import io.agentfuse.agent.permission.PermissionScope;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.config.BreakerConfig.ConsecutiveTimeouts;
import io.agentfuse.config.BreakerConfig.FailureRate;
import io.agentfuse.config.BreakerConfig.SlowCallRate;
import io.agentfuse.config.BreakerConfig.TokenOveruse;
import io.agentfuse.config.BreakerConfig.Window;
import io.agentfuse.core.retry.Jitter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeAll;
import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.ModelPrice;
import org.junit.jupiter.api.Test;

/** Every key of {@code examples/agentfuse.yaml} arrives in the objects with the value written there. */
class ExampleConfigTest {

    static final Path EXAMPLE = Path.of("").toAbsolutePath().getParent().resolve("examples/agentfuse.yaml");

    private static AgentfuseConfig config;

    @BeforeAll
    static void loadTheExample() {
        config = ConfigLoader.load(EXAMPLE, Map.of("ANTHROPIC_API_KEY", "sk-ant-test"));
    }

    @Test
    void loadsWithoutAnyEnvironmentVariable() {
        AgentfuseConfig withoutEnvironment = ConfigLoader.load(EXAMPLE, Map.of());

        assertThat(withoutEnvironment.providers().get("anthropic").apiKey()).isEmpty();
        assertThat(withoutEnvironment.server().adminEnabled()).isFalse();
    }

    @Test
    void serverAndState() {
        assertThat(config.server()).isEqualTo(ConfigDefaults.SERVER);
        assertThat(config.state()).isEqualTo(new StateConfig(StateConfig.Store.MEMORY,
                new StateConfig.Redis("redis://127.0.0.1:6379", "agentfuse:")));
    }

    @Test
    void providersTakeTheirKeysFromTheEnvironment() {
        assertThat(config.providers()).containsExactly(
                Map.entry("anthropic", new ProviderConfig("anthropic", ProviderConfig.Type.ANTHROPIC,
                        URI.create("https://api.anthropic.com"), "sk-ant-test")),
                Map.entry("openai", new ProviderConfig("openai", ProviderConfig.Type.OPENAI,
                        URI.create("https://api.openai.com/v1"), "")),
                Map.entry("gemini", new ProviderConfig("gemini", ProviderConfig.Type.GEMINI,
                        URI.create("https://generativelanguage.googleapis.com"), "")));
    }

    @Test
    void retry() {
        assertThat(config.retry()).isEqualTo(new RetryConfig(4, Duration.ofSeconds(2), 2.0, Duration.ofSeconds(30),
                Jitter.NONE, true, new RetryConfig.Budget(0.20, 10, Duration.ofSeconds(10))));
    }

    @Test
    void defaultBreakerIsTheDesignDefault() {
        assertThat(config.breakers().get("default")).isEqualTo(ConfigDefaults.MODEL_BREAKER);
    }

    @Test
    void patientBreakerUsesEveryTriggerForm() {
        assertThat(config.breakers().get("patient")).isEqualTo(new BreakerConfig(
                Optional.empty(),
                OptionalInt.of(8),
                OptionalInt.of(5),
                OptionalInt.of(4),
                Optional.of(new TokenOveruse(100_000, 2)),
                Optional.of(new FailureRate(new Window.Time(Duration.ofSeconds(60)), 20, 0.6)),
                Optional.of(new SlowCallRate(new Window.Calls(50), 20, 0.8, Duration.ofSeconds(30))),
                Duration.ofMinutes(5),
                2));
    }

    @Test
    void modelWithEveryKey() {
        ModelConfig sonnet = config.model("claude-sonnet-4").orElseThrow();

        assertThat(sonnet.provider()).isEqualTo("anthropic");
        assertThat(sonnet.upstreamModel()).isEqualTo("claude-sonnet-4-5");
        assertThat(sonnet.contextWindow()).isEqualTo(200_000);
        assertThat(sonnet.timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(sonnet.firstTokenTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(sonnet.maxConcurrent()).isEqualTo(64);
        assertThat(sonnet.fallbacks()).containsExactly("claude-haiku-4", "gpt-4o-mini");
        assertThat(sonnet.breakerName()).contains("default");
        assertThat(sonnet.breaker()).isEqualTo(ConfigDefaults.MODEL_BREAKER);
        assertThat(sonnet.retry()).isEqualTo(config.retry());
        assertThat(sonnet.translate()).isEqualTo(ModelConfig.Translate.STRICT);
        assertThat(sonnet.deadline()).hasValue(Duration.ofSeconds(90));
        assertThat(sonnet.hedge()).hasValue(HedgeConfig.after(Duration.ofSeconds(2), 0.10));
    }

    @Test
    void modelsWithANamedBreakerAnInlineBreakerAndARetryOverride() {
        ModelConfig haiku = config.model("claude-haiku-4").orElseThrow();
        ModelConfig mini = config.model("gpt-4o-mini").orElseThrow();

        assertThat(haiku.upstreamModel()).isEqualTo("claude-haiku-4-5");
        assertThat(haiku.breaker()).isEqualTo(config.breakers().get("patient"));
        assertThat(mini.contextWindow()).isEqualTo(128_000);
        assertThat(mini.breakerName()).isEmpty();
        assertThat(mini.breaker().consecutive429()).isEqualTo(OptionalInt.of(3));
        assertThat(mini.breaker().resetTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(mini.breaker().consecutiveTimeouts()).contains(new ConsecutiveTimeouts(3, Duration.ofSeconds(60)));
        assertThat(mini.retry().maxAttempts()).isEqualTo(2);
        assertThat(mini.retry().jitter()).isEqualTo(Jitter.FULL);
        assertThat(mini.retry().initialDelay()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void subagents() {
        assertThat(config.subagents()).isEqualTo(new SubagentsConfig(5, Duration.ofSeconds(120),
                java.util.List.of("claude-haiku-4", "gpt-4o-mini")));
    }

    @Test
    void mcpServerAndItsTools() {
        McpServerConfig search = config.mcpServers().get("search");

        assertThat(search.url()).isEqualTo(URI.create("http://127.0.0.1:9000/mcp"));
        assertThat(search.defaults().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(search.defaults().retries()).isEqualTo(2);
        assertThat(search.defaults().circuitBreaker()).isEqualTo(ConfigDefaults.MCP_TOOL_BREAKER);
        assertThat(search.tool("web_search").circuitBreaker().consecutiveErrors()).isEqualTo(OptionalInt.of(5));
        assertThat(search.tool("fetch_page").timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(search.tool("fetch_page").retries()).isZero();
        assertThat(search.tool("fetch_page").circuitBreaker()).isEqualTo(ConfigDefaults.MCP_TOOL_BREAKER);
    }

    @Test
    void toolsOutsideMcpServers() {
        // the entry names its retries, so they apply even to a tool not marked idempotent
        assertThat(config.tool("web_search")).isEqualTo(new ToolConfig(Duration.ofSeconds(30), 2,
                ConfigDefaults.TOOL_BREAKER, true));
        assertThat(config.tool("browser").timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(config.tool("browser").circuitBreaker().consecutiveErrors()).isEqualTo(OptionalInt.of(3));
        assertThat(config.tool("browser").circuitBreaker().resetTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.tools()).containsKey("search/fetch_page");
    }

    @Test
    void contextAndPermissions() {
        assertThat(config.context()).isEqualTo(new ContextBudgetConfig(0.70, 0.80, 0.92, 0.95, 0,
                Optional.of("claude-haiku-4"), 6));
        assertThat(config.permissions()).isEqualTo(new PermissionsConfig(3, 20, PermissionScope.CATEGORY,
                Optional.empty(), false));
    }

    @Test
    void budgetsWithoutClientKeys() {
        assertThat(config.clients()).isEmpty();
        assertThat(config.budgets()).containsOnlyKeys("per-tenant", "per-session");
        assertThat(config.budgets().get("per-tenant").limit())
                .isEqualTo(new BudgetLimit(2_000_000, 50_000_000_000L));
        assertThat(config.budgets().get("per-session").fallback()).contains("gpt-4o-mini");
        assertThat(config.model("claude-sonnet-4").orElseThrow().price())
                .contains(ModelPrice.of("3.00", "15.00").withCache(new java.math.BigDecimal("0.3"),
                        new java.math.BigDecimal("3.75"), new java.math.BigDecimal("6"))); // Anthropic's cache, in proportion
    }

    @Test
    void loadingTwiceGivesEqualConfigs() {
        assertThat(ConfigLoader.load(EXAMPLE, Map.of("ANTHROPIC_API_KEY", "sk-ant-test"))).isEqualTo(config);
    }
}
