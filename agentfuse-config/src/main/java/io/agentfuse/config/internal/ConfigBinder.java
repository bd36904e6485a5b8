package io.agentfuse.config.internal;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.BreakerConfig;
import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.config.RetryConfig;
import io.agentfuse.config.internal.Node.MapNode;
import java.util.Map;
import java.util.Set;

/**
 * Turns the root map into an {@link AgentfuseConfig}, section by section, in the order that
 * references need: providers and breakers before models, models before the sections that name
 * them. Every problem goes to {@link Problems}; the result is only used if there is none.
 */
final class ConfigBinder {

    private ConfigBinder() {
    }

    static AgentfuseConfig bind(MapNode rootNode, Map<String, String> environment, Problems problems) {
        MapReader root = MapReader.of(rootNode, rootNode.location(), problems);
        Set<String> modelNames = root.namedSections("models").keySet();
        Map<String, ProviderConfig> providers = ProviderBinder.providers(root, environment);
        RetryConfig retry = RetryBinder.read(root.section("retry"), ConfigDefaults.RETRY);
        Map<String, BreakerConfig> breakers = ModelBinder.breakers(root);
        Map<String, ModelConfig> models = ModelBinder.models(root, providers, breakers, retry, modelNames);
        var tools = new ToolBinder(root);
        Map<String, McpServerConfig> mcpServers = tools.mcpServers();
        var config = new AgentfuseConfig(
                ServerBinder.server(root.section("server")),
                ServerBinder.state(root.section("state")),
                providers, retry, breakers, models,
                SessionBinder.subagents(root.section("subagents"), modelNames),
                mcpServers, tools.tools(mcpServers),
                SessionBinder.context(root.section("context"), modelNames, models),
                SessionBinder.permissions(root.section("permissions")));
        tools.finish();
        root.finish();
        return config;
    }
}
