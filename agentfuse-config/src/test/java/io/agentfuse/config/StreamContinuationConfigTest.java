package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code models.<m>.streamContinuation} (docs/design.md §13): off unless written, a boolean, and
 * refused with key path and line where it could never act (a model without fallbacks).
 */
class StreamContinuationConfigTest {

    @Test
    void givenNoKeyWhenLoadedThenContinuationIsOffAndTheFamilyDefaultIsOffToo() {
        AgentfuseConfig config = parse("""
                providers: { anthropic: {} }
                models:
                  a: { provider: anthropic, fallbacks: [claude-sonnet-4-5] }
                """);

        assertThat(config.model("a").orElseThrow().streamContinuation()).isFalse();
        assertThat(ModelFamilies.modelOf("claude-sonnet-4-5", config.breakers(), config.retry()))
                .hasValueSatisfying(model -> assertThat(model.streamContinuation()).isFalse());
    }

    @Test
    void givenTrueWithAFallbackWhenLoadedThenTheModelContinuesBrokenStreams() {
        AgentfuseConfig config = parse("""
                providers: { anthropic: {} }
                models:
                  a: { provider: anthropic, fallbacks: [b], streamContinuation: true }
                  b: { provider: anthropic }
                """);

        assertThat(config.model("a").orElseThrow().streamContinuation()).isTrue();
        assertThat(config.model("b").orElseThrow().streamContinuation()).isFalse();
    }

    @Test
    void givenTrueWithoutFallbacksWhenLoadedThenOneErrorNamesTheKeyAndLine() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> parse("""
                providers: { anthropic: {} }
                models:
                  a:
                    provider: anthropic
                    streamContinuation: true
                """));

        assertThat(failure).as("expected a ConfigException").isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("models.a.streamContinuation");
            assertThat(error.line()).isEqualTo(5);
            assertThat(error.message()).contains("no fallbacks");
        });
    }

    @Test
    void givenAValueThatIsNoBooleanWhenLoadedThenTheErrorShowsIt() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> parse("""
                providers: { anthropic: {} }
                models:
                  a: { provider: anthropic, fallbacks: [b], streamContinuation: sometimes }
                  b: { provider: anthropic }
                """));

        assertThat(failure).as("expected a ConfigException").isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("models.a.streamContinuation");
            assertThat(error.line()).isEqualTo(3);
            assertThat(error.message()).contains("true or false").contains("sometimes");
        });
    }

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of());
    }
}
