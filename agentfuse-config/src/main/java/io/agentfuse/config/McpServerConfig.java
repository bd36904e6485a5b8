package io.agentfuse.config;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of the {@code mcpServers:} section: an MCP server the gateway proxies, with a
 * breaker per tool of that server.
 *
 * <p>{@code url} is required. Defaults ({@link ConfigDefaults#MCP_TOOL}): {@code timeout: 30s},
 * {@code retries: 2}, and a breaker that opens after 3 failures in a row for 5 minutes with one
 * probe (the seed's MCP example). Entries of the top-level {@code tools:} section override these
 * settings per tool name ({@code web_search}) or per server and tool ({@code search/web_search});
 * {@link #tool(String)} gives the merged result. Immutable and thread-safe.
 *
 * <pre>{@code
 * mcpServers:
 *   search:
 *     url: "http://127.0.0.1:9000/mcp"
 *     timeout: 30s
 *     retries: 2
 *     circuitBreaker: { failureThreshold: 3, resetTimeout: 5m, halfOpenRequests: 1 }
 *     optional: true      # the aggregate endpoint may start without it
 *     listTimeout: 2s     # the aggregate's tools/list waits this long for its list
 * }</pre>
 *
 * @param name      the key under {@code mcpServers}
 * @param url       the server's streamable-HTTP endpoint ({@code http} or {@code https})
 * @param defaults  the settings of every tool of this server that {@code tools:} does not name
 * @param overrides the settings of the tools that {@code tools:} names, merged over {@code defaults}
 * @param annotateTools whether the proxy adds a note to the description of a tool whose breaker
 *                  is open in {@code tools/list} answers ({@code annotateTools}, default false)
 * @param optional  whether the aggregate endpoint ({@code mcp.aggregate}) may start without this
 *                  server: without it, a client's {@code initialize} there fails until the server
 *                  has been reached once ({@code optional}, default false)
 * @param listTimeout how long the aggregate's {@code tools/list} waits for this server's list before
 *                  it answers with the last good one ({@code listTimeout}, default 5 s, {@code > 0})
 */
public record McpServerConfig(String name, URI url, ToolConfig defaults, Map<String, ToolConfig> overrides,
                              boolean annotateTools, boolean optional, Duration listTimeout) {

    /** {@code listTimeout}'s default. */
    public static final Duration DEFAULT_LIST_TIMEOUT = Duration.ofSeconds(5);

    public McpServerConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(defaults, "defaults");
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        Objects.requireNonNull(listTimeout, "listTimeout");
        if (listTimeout.isNegative() || listTimeout.isZero()) {
            throw new IllegalArgumentException("listTimeout must be > 0, but was " + listTimeout);
        }
    }

    /** A required server whose {@code tools/list} answers pass through unannotated. */
    public McpServerConfig(String name, URI url, ToolConfig defaults, Map<String, ToolConfig> overrides) {
        this(name, url, defaults, overrides, false, false, DEFAULT_LIST_TIMEOUT);
    }

    /** The name of the breaker of this server's transport in registries and the admin API: {@code mcp:<server>}. */
    public String serverBreakerId() {
        return "mcp:" + name;
    }

    /** The settings of the tool {@code tool} of this server. */
    public ToolConfig tool(String tool) {
        return overrides.getOrDefault(tool, defaults);
    }

    /** The name of a tool's breaker in registries and the admin API: {@code tool:<server>/<tool>}. */
    public String breakerId(String tool) {
        return "tool:" + name + "/" + tool;
    }
}
