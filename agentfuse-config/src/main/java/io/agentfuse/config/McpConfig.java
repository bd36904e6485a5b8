package io.agentfuse.config;

import java.util.List;
import java.util.Objects;

/**
 * The {@code mcp:} section: how the gateway serves several MCP servers as one at {@code POST /mcp}
 * (docs/design.md §7, "Aggregation"). Each tool of an aggregated server is offered as
 * {@code <server><separator><tool>} and guarded by its own breaker {@code tool:<server>/<tool>}.
 * Defaults ({@link #defaults()}): no server (the endpoint answers 404), separator {@code __}.
 * Every name of {@code aggregate} is an entry of {@code mcpServers} without the separator in it.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * mcp:
 *   aggregate: [search, db]   # POST /mcp offers search__web_search, db__query, ...
 *   separator: "__"
 * }</pre>
 *
 * @param aggregate the servers {@code POST /mcp} serves, in the order their tools are listed
 * @param separator what stands between a server's name and its tool's name (not empty)
 */
public record McpConfig(List<String> aggregate, String separator) {

    /** The default separator. */
    public static final String DEFAULT_SEPARATOR = "__";

    public McpConfig {
        aggregate = List.copyOf(aggregate);
        Objects.requireNonNull(separator, "separator");
        if (separator.isEmpty()) {
            throw new IllegalArgumentException("separator must not be empty, but was \"\"");
        }
    }

    /** No aggregate, separator {@code __}. */
    public static McpConfig defaults() {
        return new McpConfig(List.of(), DEFAULT_SEPARATOR);
    }

    /** Whether {@code POST /mcp} serves anything. */
    public boolean aggregates() {
        return !aggregate.isEmpty();
    }

    /** The name a tool of {@code server} has at {@code POST /mcp}. */
    public String aggregateName(String server, String tool) {
        return server + separator + tool;
    }
}
