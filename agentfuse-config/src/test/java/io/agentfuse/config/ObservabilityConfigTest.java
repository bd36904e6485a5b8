package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code observability.otlp.endpoint}: traces are off unless it (or an OTEL_* variable) says where to send them. */
class ObservabilityConfigTest {

    @Test
    void tracesAreOffByDefault() {
        AgentfuseConfig config = ConfigLoader.parse("server: {}\n", "a.yaml", Map.of());

        assertThat(config.observability().otlpEndpoint()).isEmpty();
    }

    @Test
    void aNullEndpointMeansNoTraces() {
        AgentfuseConfig config = ConfigLoader.parse("observability: { otlp: { endpoint: null } }\n", "a.yaml", Map.of());

        assertThat(config.observability().otlpEndpoint()).isEmpty();
    }

    @Test
    void theOtlpEndpointReadsAsWritten() {
        AgentfuseConfig config = ConfigLoader.parse("observability: { otlp: { endpoint: \"http://collector:4318\" } }\n",
                "a.yaml", Map.of());

        assertThat(config.observability().otlpEndpoint()).contains(URI.create("http://collector:4318"));
    }

    @Test
    void anEndpointThatIsNotAnHttpUrlOrAnUnknownKeyIsReportedWithItsPathAndLine() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                observability:
                  otlp:
                    endpoint: "grpc://collector:4317"
                    protocol: grpc
                """, "a.yaml", Map.of()));

        assertThat(failure.errors()).extracting(ConfigError::path)
                .containsExactly("observability.otlp.endpoint", "observability.otlp.protocol");
        assertThat(failure.errors()).extracting(ConfigError::line).containsExactly(3, 4);
    }
}
