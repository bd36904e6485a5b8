package io.agentfuse.springai.example;

import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts the README's example application for real (auto-configuration found through
 * {@code AutoConfiguration.imports}) against the mock provider on loopback.
 */
class ExampleApplicationTest {

    private final Vertx vertx = Vertx.vertx();
    private final MockProvider mock = MockProvider.start(vertx, 0).await();

    @AfterEach
    void close() {
        mock.close().await();
        vertx.close().await();
    }

    @Test
    void theExampleFallsBackWhenThePrimaryFailsAndCountsIt() {
        SpringApplication application = new SpringApplication(ExampleApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("agentfuseClock", new ManualClock()));
        application.setDefaultProperties(java.util.Map.of(
                "agentfuse.config-file", "classpath:agentfuse-example.yaml",
                "OPENAI_BASE_URL", mock.openAiBaseUrl(),
                "OPENAI_API_KEY", "sk-test"));
        try (ConfigurableApplicationContext context = application.run()) {
            assertThat(context.getBean(Clock.class)).isInstanceOf(ManualClock.class);
            mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());

            String answer = context.getBean(ChatModel.class).call("Hello");

            assertThat(answer).isEqualTo(MockStep.DEFAULT_TEXT);
            assertThat(mock.requestsFor("gpt-4o")).hasSize(3);
            assertThat(mock.requestsFor("gpt-4o-mini")).hasSize(1);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("agentfuse.breaker.state").tags("name", "model:gpt-4o", "state", "OPEN").gauge().value())
                    .isEqualTo(1.0);
            assertThat(meters.get("agentfuse.breaker.calls").tags("name", "model:gpt-4o-mini", "outcome", "SUCCESS")
                    .counter().count()).isEqualTo(1.0);
        }
    }
}
