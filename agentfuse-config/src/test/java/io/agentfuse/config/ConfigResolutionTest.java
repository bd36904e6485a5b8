package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.retry.Jitter;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** How sections combine: tools over servers, model retry over the top level, providers by type. */
class ConfigResolutionTest {

    private static final String SERVERS = """
            mcpServers:
              search:
                url: http://127.0.0.1:9000/mcp
                timeout: 20s
                retries: 1
                circuitBreaker: { failureThreshold: 4, resetTimeout: 10m }
              files:
                url: http://127.0.0.1:9001/mcp
            """;

    @Test
    void aToolOfAServerWithoutAnEntryTakesTheServerSettings() {
        AgentfuseConfig config = parse(SERVERS);

        ToolConfig tool = config.mcpTool("search", "anything");
        assertThat(tool.timeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(tool.retries()).isEqualTo(1);
        assertThat(tool.circuitBreaker().consecutiveErrors()).isEqualTo(OptionalInt.of(4));
        assertThat(tool.circuitBreaker().resetTimeout()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void aToolEntryIsMergedKeyByKeyOverItsServer() {
        AgentfuseConfig config = parse(SERVERS + """
                tools:
                  web_search:
                    timeout: 5s
                    circuitBreaker: { halfOpenRequests: 2 }
                """);

        ToolConfig tool = config.mcpTool("search", "web_search");
        assertThat(tool.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(tool.retries()).isEqualTo(1);
        assertThat(tool.circuitBreaker().consecutiveErrors()).isEqualTo(OptionalInt.of(4));
        assertThat(tool.circuitBreaker().resetTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(tool.circuitBreaker().halfOpenRequests()).isEqualTo(2);
    }

    @Test
    void aServerQualifiedEntryAppliesToThatServerOnlyAndOverThePlainOne() {
        AgentfuseConfig config = parse(SERVERS + """
                tools:
                  web_search: { timeout: 5s, retries: 3 }
                  search/web_search: { timeout: 2s }
                """);

        assertThat(config.mcpTool("search", "web_search").timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.mcpTool("search", "web_search").retries()).isEqualTo(3);
        assertThat(config.mcpTool("files", "web_search").timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.tools().get("search/web_search").timeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void mcpToolsDefaultToThreeFailuresAndOtherToolsToFive() {
        AgentfuseConfig config = parse(SERVERS);

        assertThat(config.mcpTool("files", "read").circuitBreaker()).isEqualTo(ConfigDefaults.MCP_TOOL_BREAKER);
        assertThat(config.tool("unconfigured")).isEqualTo(ConfigDefaults.TOOL);
        assertThat(ConfigDefaults.MCP_TOOL_BREAKER.consecutiveErrors()).isEqualTo(OptionalInt.of(3));
        assertThat(ConfigDefaults.TOOL_BREAKER.consecutiveErrors()).isEqualTo(OptionalInt.of(5));
    }

    @Test
    void aModelRetryOverridesOnlyTheKeysItNames() {
        AgentfuseConfig config = parse("""
                providers: { openai: {} }
                retry: { maxAttempts: 5, initialDelay: 1s, jitter: equal }
                models:
                  m: { provider: openai, retry: { maxAttempts: 2 } }
                """);

        RetryConfig retry = config.model("m").orElseThrow().retry();
        assertThat(retry.maxAttempts()).isEqualTo(2);
        assertThat(retry.initialDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(retry.jitter()).isEqualTo(Jitter.EQUAL);
    }

    @Test
    void aRedefinedDefaultBreakerAppliesToModelsThatNameNone() {
        AgentfuseConfig config = parse("""
                providers: { openai: {} }
                breakers:
                  default: { consecutive429: 5 }
                models:
                  m: { provider: openai }
                """);

        ModelConfig model = config.model("m").orElseThrow();
        assertThat(model.breakerName()).contains("default");
        assertThat(model.breaker().consecutive429()).isEqualTo(OptionalInt.of(5));
        assertThat(model.breakerId()).isEqualTo("model:m");
    }

    @Test
    void aProviderNamedAfterItsTypeNeedsNoTypeAndGetsThePublicEndpoint() {
        AgentfuseConfig config = parse("providers:\n  anthropic: {}\n  local: { type: openai, baseUrl: \"http://127.0.0.1:8080/v1\" }\n");

        assertThat(config.providers().get("anthropic").type()).isEqualTo(ProviderConfig.Type.ANTHROPIC);
        assertThat(config.providers().get("anthropic").baseUrl()).isEqualTo(URI.create("https://api.anthropic.com"));
        assertThat(config.providers().get("local").baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8080/v1"));
    }

    @Test
    void aModelWithFallbacksUsesThemEvenForSubagents() {
        AgentfuseConfig config = parse("""
                providers: { openai: {} }
                models:
                  a: { provider: openai, fallbacks: [b] }
                  b: { provider: openai }
                  c: { provider: openai }
                subagents: { fallbacks: [c] }
                """);

        assertThat(config.chainFor("a", true)).extracting(ModelConfig::name).containsExactly("a", "b");
        assertThat(config.chainFor("b", true)).extracting(ModelConfig::name).containsExactly("b", "c");
        assertThat(config.chainFor("c", true)).extracting(ModelConfig::name).containsExactly("c");
        assertThatThrownBy(() -> config.chainFor("z", false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void secretsNeverShowInToString() {
        AgentfuseConfig config = ConfigLoader.parse("""
                server: { adminToken: "${TOKEN}" }
                providers: { openai: { apiKey: "${KEY}" } }
                """, "a.yaml", Map.of("TOKEN", "admin-secret", "KEY", "sk-secret"));

        assertThat(config.toString()).doesNotContain("admin-secret").doesNotContain("sk-secret");
    }

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of());
    }
}
