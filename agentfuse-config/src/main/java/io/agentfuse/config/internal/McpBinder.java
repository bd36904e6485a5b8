package io.agentfuse.config.internal;

import io.agentfuse.config.McpConfig;
import io.agentfuse.config.McpServerConfig;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code mcp:} section: {@code aggregate} names entries of {@code mcpServers} (each once,
 * none with the separator in its name, which would make {@code <server><separator><tool>}
 * ambiguous), and {@code separator} is a non-empty string without white space.
 */
final class McpBinder {

    private McpBinder() {
    }

    static McpConfig read(MapReader section, Map<String, McpServerConfig> servers, Set<String> serverNames) {
        String separator = section.string("separator", McpConfig.DEFAULT_SEPARATOR);
        if (separator.isEmpty() || separator.chars().anyMatch(Character::isWhitespace)) {
            section.error("separator", "must be a non-empty string without white space, but was \"" + separator + "\"");
            separator = McpConfig.DEFAULT_SEPARATOR;
        }
        String used = separator;
        Set<String> seen = new HashSet<>();
        List<String> aggregate = StringLists.read(section, "aggregate", name -> {
            if (!serverNames.contains(name)) {
                return ClosestMatch.unknown("MCP server", name, serverNames) + " (mcp.aggregate names entries of mcpServers)";
            }
            if (name.contains(used)) {
                return "the MCP server \"" + name + "\" has the separator \"" + used + "\" in its name, so its tools' names "
                        + "(" + name + used + "<tool>) would be ambiguous; rename it or choose another mcp.separator";
            }
            return seen.add(name) ? null : "names the MCP server \"" + name + "\" twice";
        });
        section.finish();
        // a server whose url was wrong is reported already and left out of servers
        return new McpConfig(aggregate.stream().filter(servers::containsKey).toList(), separator);
    }
}
