package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How values are written: durations with per-key bare units, percentages, sizes, ${ENV}. */
class ConfigValuesTest {

    @ParameterizedTest(name = "timeout: {0} is {1} ms")
    @CsvSource({"30, 30000", "250ms, 250", "30s, 30000", "5m, 300000", "1h, 3600000", "1.5s, 1500", "'\"45\"', 45000"})
    void toolTimeoutTakesDurationsAndBareSeconds(String written, long millis) {
        AgentfuseConfig config = parse("tools:\n  t:\n    timeout: " + written + "\n");

        assertThat(config.tool("t").timeout()).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest(name = "resetTimeout: {0} is {1} ms")
    @CsvSource({"300000, 300000", "600000, 600000", "250, 250", "5m, 300000", "30s, 30000"})
    void resetTimeoutTakesDurationsAndBareMilliseconds(String written, long millis) {
        AgentfuseConfig config = parse("breakers:\n  b:\n    resetTimeout: " + written + "\n");

        assertThat(config.breakers().get("b").resetTimeout()).isEqualTo(Duration.ofMillis(millis));
    }

    @Test
    void everyTimeoutLikeKeyTakesBareSeconds() {
        AgentfuseConfig config = parse("""
                providers: { anthropic: {} }
                models:
                  m: { provider: anthropic, timeout: 90, firstTokenTimeout: 15, streamIdleTimeout: 25 }
                  n: { provider: anthropic }
                subagents: { defaultTimeout: 120 }
                mcpServers:
                  s: { url: "http://127.0.0.1:1/mcp", timeout: 45 }
                breakers:
                  b: { consecutiveTimeouts: { count: 2, slowerThan: 10 } }
                permissions: { halfOpenAfter: 300 }
                """);

        ModelConfig model = config.model("m").orElseThrow();
        assertThat(model.timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(model.firstTokenTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(model.streamIdleTimeout()).isEqualTo(Duration.ofSeconds(25));
        assertThat(config.model("n").orElseThrow().streamIdleTimeout()).as("the default").isEqualTo(Duration.ofSeconds(60));
        assertThat(config.subagents().defaultTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(config.mcpServers().get("s").defaults().timeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(config.breakers().get("b").consecutiveTimeouts().orElseThrow().slowerThan())
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(config.permissions().halfOpenAfter()).contains(Duration.ofMinutes(5));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({"50%, 0.5", "0.5, 0.5", "92.5%, 0.925", "1, 1.0", "100%, 1.0"})
    void percentagesAndFractionsMeanTheSame(String written, double fraction) {
        AgentfuseConfig config = parse("retry:\n  budget: { percent: " + written + " }\n");

        assertThat(config.retry().budget().percent()).isEqualTo(fraction);
    }

    @ParameterizedTest(name = "{0} is {1} bytes")
    @CsvSource({"10MB, 10485760", "512KB, 524288", "1GB, 1073741824", "2MiB, 2097152", "4096, 4096", "100B, 100"})
    void sizesArePowersOf1024(String written, long bytes) {
        assertThat(parse("server:\n  maxBodySize: " + written + "\n").server().maxBodySize()).isEqualTo(bytes);
    }

    @Test
    void triggersAsBareNumbersAreTheirCount() {
        BreakerConfig breaker = parse("""
                breakers:
                  b: { consecutive5xx: 4, consecutive429: { count: 6 }, consecutiveTimeouts: 2, tokenOveruse: 3 }
                """).breakers().get("b");

        assertThat(breaker.consecutive5xx()).isEqualTo(OptionalInt.of(4));
        assertThat(breaker.consecutive429()).isEqualTo(OptionalInt.of(6));
        assertThat(breaker.consecutiveTimeouts()).contains(
                new BreakerConfig.ConsecutiveTimeouts(2, ConfigDefaults.CONSECUTIVE_TIMEOUTS.slowerThan()));
        assertThat(breaker.tokenOveruse()).contains(
                new BreakerConfig.TokenOveruse(ConfigDefaults.TOKEN_OVERUSE.maxTokensPerCall(), 3));
    }

    @Test
    void offNullAndFalseTurnADefaultTriggerOff() {
        BreakerConfig breaker = parse("""
                breakers:
                  b: { consecutive5xx: off, consecutive429: null, tokenOveruse: false }
                """).breakers().get("b");

        assertThat(breaker.consecutive5xx()).isEmpty();
        assertThat(breaker.consecutive429()).isEmpty();
        assertThat(breaker.tokenOveruse()).isEmpty();
        assertThat(breaker.consecutiveErrors()).isEqualTo(OptionalInt.of(ConfigDefaults.CONSECUTIVE_ERRORS));
    }

    @Test
    void failureRateWindowIsACountOrADuration() {
        AgentfuseConfig config = parse("""
                breakers:
                  calls: { failureRate: { window: 40, minCalls: 5 } }
                  time: { failureRate: { window: 60s } }
                """);

        assertThat(config.breakers().get("calls").failureRate().orElseThrow().window())
                .isEqualTo(new BreakerConfig.Window.Calls(40));
        assertThat(config.breakers().get("time").failureRate().orElseThrow().window())
                .isEqualTo(new BreakerConfig.Window.Time(Duration.ofSeconds(60)));
    }

    @Test
    void environmentVariablesAndDefaultsAreInterpolated() {
        AgentfuseConfig config = ConfigLoader.parse("""
                server:
                  port: ${PORT:-9000}
                  adminToken: "Bearer-${TOKEN}"
                state:
                  redis: { keyPrefix: "${PREFIX:-af:}" }
                """, "agentfuse.yaml", Map.of("TOKEN", "s3cret", "PREFIX", ""));

        assertThat(config.server().port()).isEqualTo(9000);
        assertThat(config.server().adminToken()).isEqualTo("Bearer-s3cret");
        assertThat(config.state().redis().keyPrefix()).isEqualTo("af:");
    }

    @Test
    void anAdminTokenLeftOutIsTheEnvironmentsAgentfuseAdminToken() {
        AgentfuseConfig fromEnvironment = ConfigLoader.parse("server:\n  port: 7000\n", "a.yaml",
                Map.of("AGENTFUSE_ADMIN_TOKEN", "from-env"));
        AgentfuseConfig written = ConfigLoader.parse("server:\n  adminToken: written\n", "a.yaml",
                Map.of("AGENTFUSE_ADMIN_TOKEN", "from-env"));
        AgentfuseConfig neither = ConfigLoader.parse("server:\n  port: 7000\n", "a.yaml", Map.of());

        assertThat(fromEnvironment.server().adminToken()).isEqualTo("from-env");
        assertThat(written.server().adminToken()).isEqualTo("written");
        assertThat(neither.server().adminEnabled()).isFalse();
    }

    @Test
    void setVariableWinsOverItsDefault() {
        AgentfuseConfig config = ConfigLoader.parse("server:\n  port: ${PORT:-9000}\n", "a.yaml", Map.of("PORT", "7000"));

        assertThat(config.server().port()).isEqualTo(7000);
    }

    @Test
    void doubleDollarWritesALiteralReference() {
        AgentfuseConfig config = ConfigLoader.parse("server:\n  adminToken: \"$${NOT_A_VARIABLE}\"\n", "a.yaml", Map.of());

        assertThat(config.server().adminToken()).isEqualTo("${NOT_A_VARIABLE}");
    }

    @Test
    void anchorsAndMergeKeysShareSettings() {
        AgentfuseConfig config = parse("""
                breakers:
                  base: &base { consecutive5xx: 7, resetTimeout: 1m }
                  derived: { <<: *base, resetTimeout: 2m }
                """);

        assertThat(config.breakers().get("derived").consecutive5xx()).isEqualTo(OptionalInt.of(7));
        assertThat(config.breakers().get("derived").resetTimeout()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void emptySectionsTakeEveryDefault() {
        AgentfuseConfig config = parse("server:\nstate:\nretry:\ncontext:\npermissions:\n");

        assertThat(config).isEqualTo(AgentfuseConfig.defaults());
    }

    @Test
    void theDefaultCompactModelAndSubagentFallbacksAreTheSeedsAndNeedNoEntry() {
        AgentfuseConfig config = parse("providers: { anthropic: {} }\nmodels: { other: { provider: anthropic } }\n");

        assertThat(config.context().compactModel()).isEqualTo(Optional.of("claude-haiku-4"));
        assertThat(config.subagents().fallbacks()).containsExactly("claude-haiku-4", "gpt-4o-mini");
        assertThat(config.model("claude-haiku-4").orElseThrow().provider()).isEqualTo("anthropic");
        assertThat(config.model("gpt-4o-mini").orElseThrow().provider()).isEqualTo("openai");
        assertThat(config.chainFor("other", true)).extracting(ModelConfig::name)
                .containsExactly("other", "claude-haiku-4", "gpt-4o-mini");
    }

    @Test
    void theDefaultCompactModelAndSubagentFallbacksCanBeTurnedOff() {
        AgentfuseConfig config = parse("providers: { anthropic: {} }\nmodels: { other: { provider: anthropic } }\n"
                + "subagents: { fallbacks: [] }\ncontext: { compactModel: null }\n");

        assertThat(config.context().compactModel()).isEmpty();
        assertThat(config.subagents().fallbacks()).isEmpty();
        assertThat(config.models()).containsOnlyKeys("other");
    }

    @Test
    void theBuiltInProvidersNeedNoSectionAndTakeTheirKeysFromTheConventionalVariables() {
        AgentfuseConfig config = ConfigLoader.parse("models: { claude-haiku-4: { provider: anthropic } }\n",
                "agentfuse.yaml", Map.of("ANTHROPIC_API_KEY", "sk-ant-test"));

        ProviderConfig anthropic = config.providerOf(config.model("claude-haiku-4").orElseThrow());
        assertThat(anthropic.type()).isEqualTo(ProviderConfig.Type.ANTHROPIC);
        assertThat(anthropic.baseUrl()).hasToString("https://api.anthropic.com");
        assertThat(anthropic.apiKey()).isEqualTo("sk-ant-test");
        assertThat(config.providers().get("openai").apiKey()).isEmpty();
    }

    @Test
    void aBuiltInProviderEntryWithoutApiKeyTakesTheConventionalVariable() {
        AgentfuseConfig config = ConfigLoader.parse("providers: { openai: { baseUrl: \"http://127.0.0.1:9099/v1\" } }\n",
                "agentfuse.yaml", Map.of("OPENAI_API_KEY", "sk-test"));

        assertThat(config.providers().get("openai").apiKey()).isEqualTo("sk-test");
        assertThat(config.providers().get("openai").baseUrl()).hasToString("http://127.0.0.1:9099/v1");
    }

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of());
    }
}
