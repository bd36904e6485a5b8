package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The keys of the aggregate endpoint: {@code mcp.aggregate}, {@code mcp.separator},
 * {@code mcpServers.<s>.optional} and {@code listTimeout}, with their defaults, and every mistake
 * named by key path and line.
 */
class McpAggregateConfigTest {

    private static final String SERVERS = """
            mcpServers:
              db: { url: "http://127.0.0.1:9000/mcp" }
              search: { url: "http://127.0.0.1:9001/mcp", optional: true, listTimeout: 800ms }
            """;

    @Test
    void theAggregateNamesServersInOrderWithTheDefaultSeparator() {
        AgentfuseConfig config = parse(SERVERS + "mcp:\n  aggregate: [search, db]\n");

        assertThat(config.mcp().aggregate()).containsExactly("search", "db");
        assertThat(config.mcp().separator()).isEqualTo("__");
        assertThat(config.mcp().aggregateName("db", "query")).isEqualTo("db__query");
        assertThat(config.mcpServers().get("search").optional()).isTrue();
        assertThat(config.mcpServers().get("search").listTimeout()).isEqualTo(Duration.ofMillis(800));
        assertThat(config.mcpServers().get("db").optional()).isFalse();
        assertThat(config.mcpServers().get("db").listTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void withoutTheSectionNothingIsAggregated() {
        AgentfuseConfig config = parse(SERVERS);

        assertThat(config.mcp().aggregates()).isFalse();
        assertThat(AgentfuseConfig.defaults().mcp()).isEqualTo(McpConfig.defaults());
    }

    @Test
    void anAggregatedServerThatIsNotConfiguredIsAnErrorWithASuggestion() {
        ConfigError error = singleError(SERVERS + "mcp:\n  aggregate: [db, serch]\n");

        assertThat(error.path()).isEqualTo("mcp.aggregate[1]");
        assertThat(error.line()).isEqualTo(5);
        assertThat(error.message()).contains("unknown MCP server \"serch\"").contains("did you mean \"search\"");
    }

    @Test
    void aServerNamedTwiceIsAnError() {
        ConfigError error = singleError(SERVERS + "mcp:\n  aggregate: [db, db]\n");

        assertThat(error.path()).isEqualTo("mcp.aggregate[1]");
        assertThat(error.message()).contains("twice");
    }

    @Test
    void aServerWhoseNameHoldsTheSeparatorIsAnError() {
        ConfigError error = singleError(SERVERS + "mcp:\n  separator: \"d\"\n  aggregate: [db]\n");

        assertThat(error.path()).isEqualTo("mcp.aggregate[0]");
        assertThat(error.line()).isEqualTo(6);
        assertThat(error.message()).contains("ambiguous");
    }

    @Test
    void anEmptySeparatorIsAnError() {
        ConfigError error = singleError(SERVERS + "mcp:\n  separator: \"\"\n");

        assertThat(error.path()).isEqualTo("mcp.separator");
        assertThat(error.line()).isEqualTo(5);
        assertThat(error.message()).contains("non-empty");
    }

    @Test
    void aWrongListTimeoutOrOptionalIsAnErrorOnItsLine() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> parse("""
                mcpServers:
                  db: { url: "http://127.0.0.1:9000/mcp", listTimeout: 0s }
                  search: { url: "http://127.0.0.1:9001/mcp", optional: maybe }
                """));

        assertThat(failure.errors()).extracting(ConfigError::path)
                .containsExactly("mcpServers.db.listTimeout", "mcpServers.search.optional");
        assertThat(failure.errors()).extracting(ConfigError::line).containsExactly(2, 3);
    }

    @Test
    void anUnknownKeyOfTheSectionGetsADidYouMean() {
        ConfigError error = singleError(SERVERS + "mcp:\n  agregate: [db]\n");

        assertThat(error.path()).isEqualTo("mcp.agregate");
        assertThat(error.message()).contains("did you mean \"aggregate\"");
    }

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of());
    }

    private static ConfigError singleError(String yaml) {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> parse(yaml));
        assertThat(failure).as("expected a ConfigException").isNotNull();
        assertThat(failure.errors()).hasSize(1);
        return failure.errors().get(0);
    }
}
