package io.agentfuse.springai.autoconfigure;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigException;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.Clock;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.config.metrics.AgentfuseBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The auto-configuration in a real application context. */
class AgentfuseAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AgentfuseAutoConfiguration.class));

    @Test
    void exposesTheRuntimeAndItsRegistryFromTheConfigFile() {
        runner.withPropertyValues("agentfuse.config-file=classpath:agentfuse-test.yaml").run(context -> {
            assertThat(context).hasSingleBean(AgentfuseConfig.class).hasSingleBean(AgentfuseRuntime.class)
                    .hasSingleBean(CircuitBreakerRegistry.class).hasSingleBean(AgentfuseBreakerMetrics.class);
            AgentfuseRuntime runtime = context.getBean(AgentfuseRuntime.class);
            assertThat(context.getBean(CircuitBreakerRegistry.class)).isSameAs(runtime.registry());
            assertThat(runtime.config().model("gpt-4o")).hasValueSatisfying(model ->
                    assertThat(model.fallbacks()).containsExactly("gpt-4o-mini"));
            assertThat(runtime.registry().find("model:gpt-4o")).isPresent();
        });
    }

    @Test
    void resolvesVariablesInTheFileFromTheSpringEnvironment() {
        runner.withPropertyValues("agentfuse.config-file=classpath:agentfuse-test.yaml", "TEST_OPENAI_KEY=sk-from-spring")
                .run(context -> assertThat(context.getBean(AgentfuseConfig.class).providers().get("openai").apiKey())
                        .isEqualTo("sk-from-spring"));
    }

    @Test
    void readsTheBasicsFromAgentfuseProperties() {
        runner.withPropertyValues(
                "agentfuse.retry.maxAttempts=2",
                "agentfuse.retry.initialDelay=250ms",
                "agentfuse.breakers.default.consecutive5xx=4",
                "agentfuse.models.gpt-4o.provider=openai",
                "agentfuse.models.gpt-4o.fallbacks[0]=gpt-4o-mini",
                "agentfuse.models.gpt-4o.timeout=30s",
                "agentfuse.models[gpt-4.1].provider=openai").run(context -> {
            AgentfuseConfig config = context.getBean(AgentfuseConfig.class);
            assertThat(config.retry().maxAttempts()).isEqualTo(2);
            assertThat(config.model("gpt-4o")).hasValueSatisfying(model -> {
                assertThat(model.fallbacks()).containsExactly("gpt-4o-mini");
                assertThat(model.timeout()).hasSeconds(30);
            });
            assertThat(config.model("gpt-4.1")).isPresent();
        });
    }

    @Test
    void startsWithEveryDefaultWhenNothingIsConfigured() {
        runner.run(context -> assertThat(context).hasNotFailed().hasSingleBean(AgentfuseRuntime.class));
    }

    @Test
    void theApplicationsOwnBeansWin() {
        AgentfuseRuntime own = AgentfuseRuntime.builder(ConfigLoader.parse("{}", "own.yaml", Map.of())).build();
        CircuitBreakerRegistry ownRegistry = CircuitBreakerRegistry.builder().build();
        runner.withBean(AgentfuseRuntime.class, () -> own)
                .withBean(CircuitBreakerRegistry.class, () -> ownRegistry)
                .withPropertyValues("agentfuse.config-file=classpath:agentfuse-test.yaml")
                .run(context -> {
                    assertThat(context.getBean(AgentfuseRuntime.class)).isSameAs(own);
                    assertThat(context.getBean(CircuitBreakerRegistry.class)).isSameAs(ownRegistry);
                });
    }

    @Test
    void anInvalidConfigFailsTheStartWithEachKeyAndLine() {
        runner.withPropertyValues("agentfuse.config-file=classpath:agentfuse-invalid.yaml").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ConfigException.class)
                    .hasMessageContaining("classpath:agentfuse-invalid.yaml:2:")
                    .hasMessageContaining("retry.maxAttempts")
                    .hasMessageContaining("no-such-model");
        });
    }

    @Test
    void aMissingConfigFileFailsTheStart() {
        runner.withPropertyValues("agentfuse.config-file=classpath:nowhere.yaml").run(context ->
                assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ConfigException.class)
                        .hasMessageContaining("classpath:nowhere.yaml").hasMessageContaining("no such file"));
    }

    @Test
    void anInvalidPropertyFailsTheStartNamingTheKey() {
        runner.withPropertyValues("agentfuse.retry.maxAttempts=zero").run(context ->
                assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ConfigException.class)
                        .hasMessageContaining("agentfuse.* properties").hasMessageContaining("retry.maxAttempts"));
    }

    @Test
    void canBeSwitchedOff() {
        runner.withPropertyValues("agentfuse.enabled=false").run(context ->
                assertThat(context).doesNotHaveBean(AgentfuseRuntime.class));
    }

    @Test
    void breakerMetricsAreBoundToTheMeterRegistry() {
        ManualClock clock = new ManualClock();
        runner.withPropertyValues("agentfuse.config-file=classpath:agentfuse-test.yaml")
                .withBean(Clock.class, () -> clock)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    AgentfuseRuntime runtime = context.getBean(AgentfuseRuntime.class);
                    MeterRegistry meters = context.getBean(MeterRegistry.class);

                    assertThatThrownBy(() -> runtime.modelGuard("gpt-4o").execute(() -> {
                        throw new HttpStatusException(500);
                    })).isInstanceOf(HttpStatusException.class);
                    assertThatThrownBy(() -> runtime.modelGuard("gpt-4o").execute(() -> "never called"))
                            .isInstanceOf(CircuitOpenException.class);

                    assertThat(meters.get("agentfuse.breaker.calls").tags("name", "model:gpt-4o", "outcome", "SERVER_ERROR")
                            .counter().count()).isEqualTo(3.0);
                    assertThat(meters.get("agentfuse.breaker.state").tags("name", "model:gpt-4o", "state", "OPEN")
                            .gauge().value()).isEqualTo(1.0);
                    assertThat(meters.get("agentfuse.breaker.state").tags("name", "model:gpt-4o", "state", "CLOSED")
                            .gauge().value()).isEqualTo(0.0);
                    assertThat(meters.get("agentfuse.breaker.transitions")
                            .tags("name", "model:gpt-4o", "from", "CLOSED", "to", "OPEN", "reason", "consecutive5xx")
                            .counter().count()).isEqualTo(1.0);
                    assertThat(meters.get("agentfuse.breaker.not.permitted.calls").tags("name", "model:gpt-4o")
                            .counter().count()).isEqualTo(1.0);
                });
    }
}
