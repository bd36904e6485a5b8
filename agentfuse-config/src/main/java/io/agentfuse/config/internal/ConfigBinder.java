package io.agentfuse.config.internal;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.BreakerConfig;
import io.agentfuse.config.BudgetConfig;
import io.agentfuse.config.ClientConfig;
import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ContextBudgetConfig;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.config.RetryConfig;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.config.StateConfig;
import io.agentfuse.config.SubagentsConfig;
import io.agentfuse.config.internal.Node.MapNode;
import java.util.ArrayList;
import java.util.List;
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
        Map<String, ModelConfig> configured = ModelBinder.models(root, providers, breakers, retry, modelNames);
        var tools = new ToolBinder(root);
        Map<String, McpServerConfig> mcpServers = tools.mcpServers();
        ServerConfig server = ServerBinder.server(root.section("server"), environment);
        StateConfig state = ServerBinder.state(root.section("state"));
        SubagentsConfig subagents = SessionBinder.subagents(root.section("subagents"), modelNames);
        Map<String, ModelConfig> models = ModelBinder.withFamilyModels(configured, fallbacksOf(configured, subagents),
                breakers, retry);
        ContextBudgetConfig context = SessionBinder.context(root.section("context"), modelNames, models);
        if (context.compactModel().isPresent()) {
            models = ModelBinder.withFamilyModels(models, List.of(context.compactModel().get()), breakers, retry);
        }
        Map<String, ClientConfig> clients = BudgetBinder.clients(root);
        Map<String, BudgetConfig> budgets = BudgetBinder.budgets(root, modelNames, configured);
        models = ModelBinder.withFamilyModels(models, BudgetBinder.fallbacksOf(budgets), breakers, retry);
        var config = new AgentfuseConfig(server, state, providers, retry, breakers, models, subagents,
                mcpServers, tools.tools(mcpServers), context,
                SessionBinder.permissions(root.section("permissions")),
                McpBinder.read(root.section("mcp"), mcpServers, tools.serverNames()),
                ServerBinder.observability(root.section("observability")), clients, budgets);
        tools.finish();
        root.finish();
        return config;
    }

    /** Every model a fallback chain names, in the order the file names them. */
    private static List<String> fallbacksOf(Map<String, ModelConfig> models, SubagentsConfig subagents) {
        var names = new ArrayList<String>();
        models.values().forEach(model -> names.addAll(model.fallbacks()));
        names.addAll(subagents.fallbacks());
        return names;
    }
}
