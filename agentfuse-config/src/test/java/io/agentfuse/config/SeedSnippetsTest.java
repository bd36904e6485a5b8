package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The two OpenClaw blocks of the seed, copied verbatim (comments included), load with the
 * seed's meaning: {@code timeout: 30} is 30 seconds, {@code resetTimeout: 300000} is 5 minutes.
 */
class SeedSnippetsTest {

    /** The seed's subagent fallbacks name two models; a real file configures them. */
    private static final String MODELS = """
            providers: { anthropic: {}, openai: {} }
            models:
              claude-haiku-4: { provider: anthropic }
              gpt-4o-mini: { provider: openai }
            """;

    @Test
    void toolsBlockLoadsAsWrittenWithSecondsAndMilliseconds() {
        // Given the seed's tools block, alone in a file
        AgentfuseConfig config = ConfigLoader.parse(resource("seed-tools.yaml"), "seed-tools.yaml", Map.of());

        // Then web_search means what the seed means
        ToolConfig webSearch = config.tool("web_search");
        assertThat(webSearch.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(webSearch.retries()).isEqualTo(2);
        assertThat(webSearch.circuitBreaker().consecutiveErrors()).isEqualTo(OptionalInt.of(5));
        assertThat(webSearch.circuitBreaker().resetTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(webSearch.circuitBreaker().halfOpenRequests()).isEqualTo(1);
    }

    @Test
    void browserCoolsDownForTenMinutesAndKeepsTheDefaultsItLeavesOut() {
        AgentfuseConfig config = ConfigLoader.parse(resource("seed-tools.yaml"), "seed-tools.yaml", Map.of());

        ToolConfig browser = config.tool("browser");
        assertThat(browser.timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(browser.circuitBreaker().consecutiveErrors()).isEqualTo(OptionalInt.of(3));
        assertThat(browser.circuitBreaker().resetTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(browser.circuitBreaker().halfOpenRequests()).isEqualTo(ConfigDefaults.HALF_OPEN_REQUESTS);
        assertThat(browser.retries()).isEqualTo(ConfigDefaults.TOOL.retries());
    }

    @Test
    void subagentsBlockLoadsAsWrittenWithNullEndingTheChain() {
        // Given the seed's subagents block in a file that configures the models it names
        String yaml = MODELS + resource("seed-subagents.yaml");

        AgentfuseConfig config = ConfigLoader.parse(yaml, "seed-subagents.yaml", Map.of());

        // Then 5 at a time, 120 seconds, haiku then gpt-4o-mini then give up
        SubagentsConfig subagents = config.subagents();
        assertThat(subagents.maxConcurrent()).isEqualTo(5);
        assertThat(subagents.defaultTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(subagents.fallbacks()).containsExactly("claude-haiku-4", "gpt-4o-mini");
    }

    @Test
    void subagentRequestsFallBackAlongTheSeedChain() {
        AgentfuseConfig config = ConfigLoader.parse(MODELS + resource("seed-subagents.yaml"), "seed.yaml", Map.of());

        assertThat(config.chainFor("claude-haiku-4", true)).extracting(ModelConfig::name)
                .containsExactly("claude-haiku-4", "gpt-4o-mini");
        assertThat(config.chainFor("claude-haiku-4", false)).extracting(ModelConfig::name)
                .containsExactly("claude-haiku-4");
    }

    @Test
    void subagentsBlockAloneRoutesItsModelsToTheirFamiliesProviders() {
        // Given the seed's subagents block alone, with no providers: and no models:
        AgentfuseConfig config = ConfigLoader.parse(resource("seed-subagents.yaml"), "seed-subagents.yaml", Map.of());

        // Then each fallback is a model of its family's built-in provider, with its published window
        ModelConfig haiku = config.model("claude-haiku-4").orElseThrow();
        ModelConfig mini = config.model("gpt-4o-mini").orElseThrow();
        assertThat(haiku.provider()).isEqualTo("anthropic");
        assertThat(haiku.contextWindow()).isEqualTo(200_000);
        assertThat(mini.provider()).isEqualTo("openai");
        assertThat(mini.contextWindow()).isEqualTo(128_000);
        assertThat(haiku.breakerName()).contains(ConfigDefaults.DEFAULT_BREAKER_NAME);
        assertThat(haiku.breaker()).isEqualTo(config.breakers().get(ConfigDefaults.DEFAULT_BREAKER_NAME));
        assertThat(haiku.retry()).isEqualTo(config.retry());
        assertThat(config.chainFor("claude-haiku-4", true)).extracting(ModelConfig::name)
                .containsExactly("claude-haiku-4", "gpt-4o-mini");
    }

    @Test
    void aFamilyModelGetsTheDefaultBreakerTheFileDefines() {
        String yaml = """
                breakers:
                  default: { consecutive5xx: 7 }
                subagents: { fallbacks: ["claude-haiku-4", null] }
                """;

        AgentfuseConfig config = ConfigLoader.parse(yaml, "custom-default.yaml", Map.of());

        assertThat(config.model("claude-haiku-4").orElseThrow().breaker().consecutive5xx()).isEqualTo(OptionalInt.of(7));
    }

    @Test
    void aConfiguredModelWinsOverItsFamily() {
        String yaml = MODELS.replace("claude-haiku-4: { provider: anthropic }",
                "claude-haiku-4: { provider: anthropic, contextWindow: 50000 }") + resource("seed-subagents.yaml");

        AgentfuseConfig config = ConfigLoader.parse(yaml, "seed.yaml", Map.of());

        assertThat(config.model("claude-haiku-4").orElseThrow().contextWindow()).isEqualTo(50_000);
        assertThat(config.models()).containsOnlyKeys("claude-haiku-4", "gpt-4o-mini");
    }

    @Test
    void aNameOfNoFamilyIsStillAnErrorListingTheConfiguredModels() {
        String yaml = MODELS + "subagents: { fallbacks: [\"claude-haiku-4\", \"llama-3.1-70b\", null] }\n";

        assertThatThrownBy(() -> ConfigLoader.parse(yaml, "seed.yaml", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("subagents.fallbacks[1]")
                .hasMessageContaining("unknown model \"llama-3.1-70b\"; configured: claude-haiku-4, gpt-4o-mini");
    }

    @Test
    void aCompactModelOfAFamilyNeedsNoEntry() {
        AgentfuseConfig config = ConfigLoader.parse("context: { compactModel: claude-haiku-4-5 }\n", "compact.yaml", Map.of());

        assertThat(config.context().compactModel()).contains("claude-haiku-4-5");
        assertThat(config.model("claude-haiku-4-5").orElseThrow().provider()).isEqualTo("anthropic");
    }

    static String resource(String name) {
        try (InputStream in = SeedSnippetsTest.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
