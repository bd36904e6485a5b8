package io.agentfuse.springai.autoconfigure;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.AgentfuseRuntimeBuilder;
import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.springai.ChatTokens;
import io.agentfuse.config.metrics.AgentfuseBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ResourceLoader;

import java.util.List;

/**
 * Spring Boot auto-configuration of agentfuse: the {@link AgentfuseConfig} read from the YAML file
 * named by {@code agentfuse.config-file} (or from {@code agentfuse.*} properties), the
 * {@link AgentfuseRuntime} with a guard per configured model (counting tokens from Spring AI's usage
 * metadata, {@link ChatTokens}), its {@link CircuitBreakerRegistry}, and, with Micrometer present,
 * {@link AgentfuseBreakerMetrics} bound to every {@link MeterRegistry} bean. Every bean backs off
 * when the application defines its own; an {@code io.agentfuse.core.Clock} bean (a
 * {@link ManualClock} in tests) becomes the runtime's clock. A bad configuration fails the
 * application's start with the message that names each key and line. {@code agentfuse.enabled=false}
 * turns it all off.
 *
 * <pre>{@code
 * # application.properties
 * agentfuse.config-file=classpath:agentfuse.yaml
 *
 * @Bean
 * ChatModel chatModel(AgentfuseRuntime runtime, OpenAiChatModel gpt4o, OpenAiChatModel mini) {
 *     return GuardedChatModel.of(runtime, "gpt-4o", Map.of("gpt-4o", gpt4o, "gpt-4o-mini", mini));
 * }
 * }</pre>
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "agentfuse.enabled", matchIfMissing = true)
public class AgentfuseAutoConfiguration {

    /** The configuration: the YAML file, the {@code agentfuse.*} properties, or the defaults. */
    @Bean
    @ConditionalOnMissingBean
    public AgentfuseConfig agentfuseConfig(ConfigurableEnvironment environment, ResourceLoader resources) {
        return AgentfuseConfigSource.load(environment, resources);
    }

    /** The runtime: a guard per model and tool, on the application's {@code Clock} bean if it has one. */
    @Bean
    @ConditionalOnMissingBean
    public AgentfuseRuntime agentfuseRuntime(AgentfuseConfig config, ObjectProvider<Clock> clock) {
        AgentfuseRuntimeBuilder builder = AgentfuseRuntime.builder(config).tokens(ChatTokens::used);
        Clock time = clock.getIfUnique();
        if (time instanceof ManualClock manual) {
            builder.manualClock(manual);
        } else if (time != null) {
            builder.clock(time);
        }
        return builder.build();
    }

    /** Every breaker of the runtime. */
    @Bean
    @ConditionalOnMissingBean
    public CircuitBreakerRegistry agentfuseBreakerRegistry(AgentfuseRuntime runtime) {
        return runtime.registry();
    }

    /** The breaker meters of docs/design.md §9, when Micrometer is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        AgentfuseBreakerMetrics agentfuseBreakerMetrics(CircuitBreakerRegistry breakers) {
            return new AgentfuseBreakerMetrics(breakers);
        }

        /**
         * Binds the meters to the context's meter registries: to its composite ones only when it has
         * any (a registry inside a composite would otherwise count every call twice), else to each.
         * Boot's actuator binds {@code MeterBinder} beans too; binding twice to one registry changes nothing.
         */
        @Bean
        SmartInitializingSingleton agentfuseBreakerMetricsBinding(ObjectProvider<AgentfuseBreakerMetrics> metrics,
                                                                  ObjectProvider<MeterRegistry> registries) {
            return () -> metrics.ifAvailable(binder -> {
                List<MeterRegistry> all = registries.orderedStream().toList();
                List<MeterRegistry> composites = all.stream().filter(CompositeMeterRegistry.class::isInstance).toList();
                (composites.isEmpty() ? all : composites).forEach(binder::bindTo);
            });
        }
    }
}
