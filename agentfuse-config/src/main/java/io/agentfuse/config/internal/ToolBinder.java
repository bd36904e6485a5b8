package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.config.ToolConfig;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;

/**
 * Reads the {@code mcpServers:} and {@code tools:} sections and merges them: a tool entry
 * named {@code tool} applies to that tool everywhere, one named {@code server/tool} to that
 * server only and over the former; both are merged key by key over the server's settings (or,
 * outside MCP servers, over {@link ConfigDefaults#TOOL}). Call {@link #mcpServers()}, then
 * {@link #tools(Map)}, then {@link #finish()}.
 */
final class ToolBinder {

    private static final List<String> HTTP_SCHEMES = List.of("http", "https");
    private static final char SERVER_SEPARATOR = '/';
    private static final String ANNOTATE_TOOLS = "annotateTools";
    private static final String OPTIONAL = "optional";
    private static final String LIST_TIMEOUT = "listTimeout";

    private final Map<String, MapReader> servers;
    private final Map<String, MapReader> tools;

    /** The names under {@code mcpServers}, those with a wrong {@code url} included. */
    java.util.Set<String> serverNames() {
        return servers.keySet();
    }

    ToolBinder(MapReader root) {
        this.servers = root.namedSections("mcpServers");
        this.tools = root.namedSections("tools");
    }

    Map<String, McpServerConfig> mcpServers() {
        var configs = new LinkedHashMap<String, McpServerConfig>();
        servers.forEach((name, section) -> {
            if (name.indexOf(SERVER_SEPARATOR) >= 0) {
                section.problems().add(section.path(), section.location(), "an MCP server name must not contain \""
                        + SERVER_SEPARATOR + "\": breakers are named tool:<server>/<tool>");
            }
            Optional<URI> url = section.requiredString("url")
                    .flatMap(text -> section.url("url", Optional.empty(), HTTP_SCHEMES));
            ToolConfig defaults = server(section);
            boolean annotate = section.bool(ANNOTATE_TOOLS, false);
            boolean optional = section.bool(OPTIONAL, false);
            Duration listTimeout = section.duration(LIST_TIMEOUT, McpServerConfig.DEFAULT_LIST_TIMEOUT);
            section.finish();
            Map<String, ToolConfig> overrides = overrides(name, defaults);
            url.ifPresent(uri -> configs.put(name,
                    new McpServerConfig(name, uri, defaults, overrides, annotate, optional, listTimeout)));
        });
        return configs;
    }

    /**
     * Every {@code tools} entry on its own: a plain name over the defaults for tools outside MCP
     * servers, a {@code server/tool} name as that server sees it.
     */
    Map<String, ToolConfig> tools(Map<String, McpServerConfig> mcpServers) {
        var configs = new LinkedHashMap<String, ToolConfig>();
        tools.forEach((key, section) -> {
            int separator = key.indexOf(SERVER_SEPARATOR);
            if (separator < 0) {
                configs.put(key, read(section, ConfigDefaults.TOOL));
                return;
            }
            String server = key.substring(0, separator);
            McpServerConfig config = mcpServers.get(server);
            if (config != null) {
                configs.put(key, config.tool(key.substring(separator + 1)));
            } else if (!servers.containsKey(server)) {
                section.problems().add(section.path(), section.location(),
                        ClosestMatch.unknown("MCP server", server, servers.keySet())
                                + " (a tools key written server/tool names an entry of mcpServers)");
                read(section, ConfigDefaults.MCP_TOOL);
            }
        });
        return configs;
    }

    /** Reports the unknown keys of every {@code tools} entry, once all of them were read. */
    void finish() {
        tools.values().forEach(MapReader::finish);
    }

    /** The tools of {@code server} that {@code tools} names, each merged over the server's settings. */
    private Map<String, ToolConfig> overrides(String server, ToolConfig defaults) {
        var overrides = new LinkedHashMap<String, ToolConfig>();
        tools.forEach((key, tool) -> {
            if (key.indexOf(SERVER_SEPARATOR) < 0) {
                overrides.put(key, read(tool, defaults));
            }
        });
        String prefix = server + SERVER_SEPARATOR;
        tools.forEach((key, tool) -> {
            if (key.startsWith(prefix)) {
                String toolName = key.substring(prefix.length());
                overrides.put(toolName, read(tool, overrides.getOrDefault(toolName, defaults)));
            }
        });
        return overrides;
    }

    /**
     * A server's settings for its tools: a server-wide {@code retries} is not explicit for any
     * one tool (the proxy only retries idempotent tools with it).
     */
    private static ToolConfig server(MapReader section) {
        ToolConfig read = read(section, ConfigDefaults.MCP_TOOL);
        return new ToolConfig(read.timeout(), read.retries(), read.circuitBreaker(), false);
    }

    /** One tool's (or server's) settings, merged key by key over {@code defaults}. */
    private static ToolConfig read(MapReader section, ToolConfig defaults) {
        boolean explicit = section.find("retries").isPresent();
        return new ToolConfig(
                section.duration("timeout", defaults.timeout()),
                section.integer("retries", defaults.retries(), 0, Integer.MAX_VALUE),
                BreakerBinder.read(section.section("circuitBreaker"), defaults.circuitBreaker()),
                explicit || defaults.explicitRetries());
    }
}
