package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionScope;
import io.agentfuse.agent.permission.PermissionState;
import io.agentfuse.agent.permission.ToolCall;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.Trigger;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Guards and breakers built from a configuration, driven by a manual clock. */
class AgentfuseRuntimeTest {

    /** Configured models of two providers, an MCP server and a tool: also the family models' test's. */
    static final String MODELS = """
            providers: { anthropic: {}, openai: {} }
            retry: { maxAttempts: 3, initialDelay: 2s, multiplier: 2 }
            models:
              sonnet:
                provider: anthropic
                maxConcurrent: 8
                breaker: { consecutive5xx: 2, consecutiveErrors: off, failureRate: off }
                retry: { maxAttempts: 1 }
              haiku: { provider: anthropic }
              mini: { provider: openai }
            mcpServers:
              search:
                url: http://127.0.0.1:9000/mcp
                retries: 0
                circuitBreaker: { failureThreshold: 2 }
            tools:
              web_search: { timeout: 30s, retries: 1 }
            """;

    private final ManualClock clock = new ManualClock();

    @Test
    void createsOneBreakerPerModelAndPerConfiguredMcpTool() {
        AgentfuseRuntime runtime = runtime(MODELS);

        assertThat(runtime.registry().all()).extracting(CircuitBreaker::name)
                .containsExactly("model:claude-haiku-4", "model:gpt-4o-mini", "model:haiku", "model:mini", "model:sonnet",
                        "tool:search/web_search");
    }

    @Test
    void modelBreakerHasExactlyTheTriggersThatAreOn() {
        AgentfuseRuntime runtime = runtime(MODELS);

        CircuitBreaker sonnet = runtime.registry().find("model:sonnet").orElseThrow();
        assertThat(sonnet.config().triggers()).containsExactly(
                Trigger.consecutiveTimeouts(3, Duration.ofSeconds(60)),
                Trigger.consecutive5xx(2),
                Trigger.consecutive429(2),
                Trigger.tokenOveruse(50_000));
        assertThat(runtime.registry().find("model:haiku").orElseThrow().config().triggers())
                .hasSize(6);
    }

    @Test
    void modelGuardOpensItsBreakerAfterTheConfiguredServerErrors() {
        Guard guard = runtime(MODELS).modelGuard("sonnet");
        var calls = new AtomicInteger();

        for (int failure = 0; failure < 2; failure++) {
            assertThatThrownBy(() -> guard.execute(() -> fail(calls, 503))).isInstanceOf(HttpStatusException.class);
        }

        assertThat(guard.circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
        assertThatThrownBy(() -> guard.execute(() -> fail(calls, 503))).isInstanceOf(CircuitOpenException.class);
        assertThat(calls).hasValue(2);
    }

    @Test
    void modelGuardRetriesWithTheTopLevelBackoff() {
        Guard guard = runtime(MODELS).modelGuard("haiku");
        var calls = new AtomicInteger();
        long start = clock.nanoTime();

        String answer = guard.execute(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new HttpStatusException(503);
            }
            return "ok";
        });

        assertThat(answer).isEqualTo("ok");
        assertThat(calls).hasValue(3);
        assertThat(Duration.ofNanos(clock.nanoTime() - start)).isEqualTo(Duration.ofSeconds(2 + 4));
    }

    @Test
    void modelGuardHasTheModelsBulkheadAndTimeout() {
        AgentfuseRuntime runtime = runtime(MODELS);

        Guard sonnet = runtime.modelGuard("sonnet");

        assertThat(sonnet.bulkhead().maxConcurrent()).isEqualTo(8);
        assertThat(sonnet.timeout().duration()).isEqualTo(ConfigDefaults.MODEL_TIMEOUT);
        assertThat(runtime.modelGuard("sonnet")).isSameAs(sonnet);
    }

    @Test
    void modelsOfOneProviderShareARetryBudget() {
        AgentfuseRuntime runtime = runtime(MODELS);

        var haiku = runtime.modelGuard("haiku").retryPolicy().budget();
        var sonnet = runtime.modelGuard("sonnet").retryPolicy().budget();
        var mini = runtime.modelGuard("mini").retryPolicy().budget();

        assertThat(sonnet).isNotNull().isSameAs(haiku);
        assertThat(mini).isNotNull().isNotSameAs(haiku);
    }

    @Test
    void mcpToolGuardOpensAfterItsServersFailureThreshold() {
        Guard guard = runtime(MODELS).mcpToolGuard("search", "fetch_page");
        var calls = new AtomicInteger();

        assertThatThrownBy(() -> guard.execute(() -> fail(calls, 500))).isInstanceOf(HttpStatusException.class);
        assertThatThrownBy(() -> guard.execute(() -> fail(calls, 500))).isInstanceOf(HttpStatusException.class);

        assertThat(guard.name()).isEqualTo("tool:search/fetch_page");
        assertThat(guard.circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
        assertThat(calls).hasValue(2);
    }

    @Test
    void toolEntryRetriesOnceWithItsOwnCount() {
        Guard guard = runtime(MODELS).mcpToolGuard("search", "web_search");
        var calls = new AtomicInteger();

        assertThatThrownBy(() -> guard.execute(() -> fail(calls, 502))).isInstanceOf(HttpStatusException.class);

        assertThat(calls).hasValue(2);
        assertThat(guard.retryPolicy().initialDelay()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void toolCallOverItsTimeoutIsATimeout() {
        Guard guard = runtime("tools:\n  slow: { timeout: 30, retries: 0 }\n").toolGuard("slow");

        assertThatThrownBy(() -> guard.execute(() -> {
            clock.advance(Duration.ofSeconds(31));
            return "too late";
        })).isInstanceOf(CallTimeoutException.class);
    }

    @Test
    void unknownModelOrServerIsRejected() {
        AgentfuseRuntime runtime = runtime(MODELS);

        assertThatThrownBy(() -> runtime.modelGuard("opus")).hasMessageContaining("model opus is not configured");
        assertThatThrownBy(() -> runtime.mcpToolGuard("files", "read"))
                .hasMessageContaining("MCP server files is not configured");
    }

    @Test
    void subagentBulkheadHasTheConfiguredLimit() {
        assertThat(runtime(MODELS).subagentBulkhead().maxConcurrent()).isEqualTo(5);
    }

    @Test
    void contextBudgetIsTheLadderOverTheModelsWindow() {
        AgentfuseRuntime runtime = runtime("""
                providers: { openai: {} }
                models:
                  mini: { provider: openai, contextWindow: 100000 }
                context: { warnAt: 60%, reserveOutputTokens: 1000 }
                """);

        ContextBudget budget = runtime.contextBudget("mini");

        assertThat(budget.windowTokens()).isEqualTo(100_000);
        assertThat(budget.levelOf(58_999)).isEqualTo(ContextLevel.NORMAL);
        assertThat(budget.levelOf(59_000)).isEqualTo(ContextLevel.WARNING);
        assertThat(budget.levelOf(94_000)).isEqualTo(ContextLevel.REJECT);
    }

    @Test
    void permissionBreakerOpensAfterTheConfiguredDenials() {
        AgentfuseRuntime runtime = runtime("permissions: { maxConsecutiveDenials: 2, scope: global }\n");
        PermissionBreaker breaker = runtime.permissionBreaker().build();

        breaker.recordDenied(ToolCall.of("Bash"));
        breaker.recordDenied(ToolCall.of("Edit"));

        assertThat(breaker.config().scope()).isEqualTo(PermissionScope.GLOBAL);
        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        assertThat(runtime.permissionBreaker().build()).isNotSameAs(breaker);
    }

    @Test
    void theExampleFileBuildsEveryGuard() {
        AgentfuseConfig example = ConfigLoader.load(ExampleConfigTest.EXAMPLE, Map.of());
        AgentfuseRuntime runtime = AgentfuseRuntime.builder(example).manualClock(clock).build();

        example.models().keySet().forEach(model -> assertThat(runtime.modelGuard(model).name())
                .isEqualTo("model:" + model));
        assertThat(runtime.mcpToolGuard("search", "fetch_page").retryPolicy().maxAttempts()).isEqualTo(1);
        assertThat(runtime.toolGuard("browser").timeout().duration()).hasSeconds(60);
        assertThat(runtime.registry().all()).extracting(CircuitBreaker::name).contains(
                "model:claude-sonnet-4", "tool:search/web_search", "tool:search/browser", "tool:search/fetch_page");
        assertThat(runtime.registry().find("model:claude-haiku-4").orElseThrow().config().triggers())
                .contains(Trigger.slowCallRate(Trigger.Window.ofCalls(50), 20, 0.8, Duration.ofSeconds(30)));
    }

    private AgentfuseRuntime runtime(String yaml) {
        return runtime(yaml, clock);
    }

    /** The runtime of {@code yaml}, on {@code clock}. */
    static AgentfuseRuntime runtime(String yaml, ManualClock clock) {
        return AgentfuseRuntime.builder(ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of())).manualClock(clock).build();
    }

    private static String fail(AtomicInteger calls, int status) {
        calls.incrementAndGet();
        throw new HttpStatusException(status);
    }
}
