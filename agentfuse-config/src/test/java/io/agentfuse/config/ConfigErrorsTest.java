package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file with several mistakes reports all of them at once, in file order, compiler style. */
class ConfigErrorsTest {

    private static final String MANY_MISTAKES = """
            server:
              port: 70000
            providers:
              anthropic: { apiKey: "${ANTHROPIC_API_KEY}" }
            models:
              claude-sonnet-4:
                provider: anthropic
                fallbacks: [haiku-4]
            tools:
              web_search:
                circuitBreaker:
                  failureThreshold: 0
                  halfOpenRequest: 1
            context:
              snipAt: 75%
            """;

    @Test
    void reportsEveryMistakeInFileOrder() {
        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(MANY_MISTAKES, "agentfuse.yaml", Map.of()));

        assertThat(failure.errors()).extracting(ConfigError::path, ConfigError::line).containsExactly(
                org.assertj.core.groups.Tuple.tuple("server.port", 2),
                org.assertj.core.groups.Tuple.tuple("providers.anthropic.apiKey", 4),
                org.assertj.core.groups.Tuple.tuple("models.claude-sonnet-4.fallbacks[0]", 8),
                org.assertj.core.groups.Tuple.tuple("tools.web_search.circuitBreaker.failureThreshold", 12),
                org.assertj.core.groups.Tuple.tuple("tools.web_search.circuitBreaker.halfOpenRequest", 13),
                org.assertj.core.groups.Tuple.tuple("context.snipAt", 15));
    }

    @Test
    void messageListsOneErrorPerLineWithFileLineAndColumn() {
        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(MANY_MISTAKES, "agentfuse.yaml", Map.of()));

        assertThat(failure.getMessage().lines()).hasSize(6).contains(
                "agentfuse.yaml:2:9: server.port: must be between 0 and 65535, but was 70000",
                "agentfuse.yaml:12:25: tools.web_search.circuitBreaker.failureThreshold: must be >= 1, but was 0",
                "agentfuse.yaml:13:7: tools.web_search.circuitBreaker.halfOpenRequest: unknown key;"
                        + " did you mean \"halfOpenRequests\"?");
        assertThat(failure.source()).isEqualTo("agentfuse.yaml");
    }

    @Test
    void namesTheFileAsGivenWhenLoadingFromDisk(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("broken.yaml"), "server:\n  port: -1\n");

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage(file + ":2:9: server.port: must be between 0 and 65535, but was -1");
    }

    @Test
    void aMissingFileIsAConfigErrorWithoutPosition(@TempDir Path directory) {
        Path missing = directory.resolve("nowhere.yaml");

        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.load(missing, Map.of()));

        assertThat(failure.errors()).singleElement().satisfies(error -> assertThat(error.hasPosition()).isFalse());
        assertThat(failure.getMessage()).isEqualTo(missing + ": no such file");
    }

    @Test
    void aValueThatFailedInterpolationIsReportedOnce() {
        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("server:\n  port: ${PORT}\n", "agentfuse.yaml", Map.of()));

        assertThat(failure.errors()).singleElement()
                .extracting(ConfigError::message).asString().contains("environment variable PORT is not set");
    }

    @Test
    void aServerBreakerMistakeIsReportedOnceThoughEveryToolInheritsIt() {
        String yaml = """
                mcpServers:
                  search:
                    url: http://127.0.0.1:9000/mcp
                    circuitBreaker: { resetTimeout: soon }
                tools:
                  web_search: {}
                  fetch_page: {}
                """;

        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of()));

        assertThat(failure.errors()).singleElement().extracting(ConfigError::path)
                .isEqualTo("mcpServers.search.circuitBreaker.resetTimeout");
    }
}
