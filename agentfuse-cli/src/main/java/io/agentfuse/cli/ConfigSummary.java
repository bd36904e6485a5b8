package io.agentfuse.cli;

import io.agentfuse.agent.permission.PermissionScope;
import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.BudgetConfig;
import io.agentfuse.config.ClientConfig;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.PermissionsConfig;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.config.ToolConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A short, human-readable account of what a valid configuration sets up: models with their
 * provider, fallbacks and breaker, the retry policy, the breakers of MCP servers and tools, the
 * context ladder, the permission breaker, the client keys and each budget with what it covers. Pure: the same configuration gives the same text.
 */
final class ConfigSummary {

    private static final String INDENT = "  ";

    private final AgentfuseConfig config;
    private final StringBuilder text = new StringBuilder();

    ConfigSummary(AgentfuseConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    String render() {
        text.setLength(0);
        providers();
        models();
        section("Retry (models without their own)", List.of(Describe.retry(config.retry())));
        subagents();
        mcpServers();
        tools();
        context();
        permissions();
        clients();
        budgets();
        section("Server", List.of("port " + config.server().port() + ", bodies up to "
                + Describe.bytes(config.server().maxBodySize()) + ", admin API "
                + (config.server().adminEnabled() ? "enabled (token set)" : "read-only")
                + ", state in " + config.state().store().name().toLowerCase(Locale.ROOT)));
        return text.toString();
    }

    private void providers() {
        var lines = new ArrayList<String>();
        config.providers().values().forEach(provider -> lines.add(provider.name() + ": "
                + provider.type().name().toLowerCase(Locale.ROOT) + " at " + provider.baseUrl()
                + (provider.hasApiKey() ? ", API key set" : ", no API key")));
        section("Providers", lines);
    }

    private void models() {
        var lines = new ArrayList<String>();
        for (ModelConfig model : config.models().values()) {
            ProviderConfig provider = config.providerOf(model);
            String upstream = model.upstreamModel().equals(model.name()) ? "" : " as " + model.upstreamModel();
            lines.add(model.name() + ": " + provider.name() + upstream + ", timeout "
                    + Describe.duration(model.timeout()) + ", " + model.maxConcurrent() + " at a time, context "
                    + model.contextWindow() + " tokens");
            lines.add(INDENT + "fallbacks: " + Describe.chain(model.fallbacks()));
            lines.add(INDENT + "breaker " + model.breakerId() + " (" + model.breakerName().orElse("inline") + "): "
                    + Describe.breaker(model.breaker()));
            if (!model.retry().equals(config.retry())) {
                lines.add(INDENT + "retry: " + Describe.retry(model.retry()));
            }
        }
        section("Models", lines);
    }

    private void subagents() {
        section("Subagents", List.of(config.subagents().maxConcurrent() + " at a time, timeout "
                + Describe.duration(config.subagents().defaultTimeout()) + ", fallbacks when the model has none: "
                + Describe.chain(config.subagents().fallbacks())));
    }

    private void mcpServers() {
        var lines = new ArrayList<String>();
        for (McpServerConfig server : config.mcpServers().values()) {
            lines.add(server.name() + ": " + server.url() + (server.optional() ? " (optional)" : ""));
            lines.add(INDENT + "every tool (" + server.breakerId("*") + "): " + Describe.tool(server.defaults()));
            server.overrides().forEach((tool, settings) -> lines.add(INDENT + server.breakerId(tool) + ": "
                    + Describe.tool(settings)));
        }
        if (config.mcp().aggregates()) {
            lines.add("POST /mcp serves " + String.join(", ", config.mcp().aggregate()) + " as one server (tools named <server>"
                    + config.mcp().separator() + "<tool>)");
        }
        section("MCP servers", lines);
    }

    private void tools() {
        var lines = new ArrayList<String>();
        for (Map.Entry<String, ToolConfig> tool : config.tools().entrySet()) {
            lines.add(tool.getKey() + ": " + Describe.tool(tool.getValue()));
        }
        section("Tools", lines);
    }

    private void context() {
        var context = config.context();
        section("Context budget", List.of("warn at " + Describe.percent(context.warnAt()) + ", compact at "
                + Describe.percent(context.autoCompactAt()) + " with "
                + context.compactModel().orElse("no model (snipping only)") + ", snip at "
                + Describe.percent(context.snipAt()) + ", reject at " + Describe.percent(context.rejectAt())
                + "; keep the last " + context.keepRecentTurns() + " turns, reserve "
                + context.reserveOutputTokens() + " tokens for output"));
    }

    private void permissions() {
        PermissionsConfig permissions = config.permissions();
        section("Permissions", List.of("ask every time after " + permissions.maxConsecutiveDenials()
                + " denials in a row or " + permissions.maxTotalDenials() + " in a session ("
                + (permissions.scope() == PermissionScope.CATEGORY ? "per tool category" : "all tools")
                + "), " + permissions.halfOpenAfter().map(after -> "half-open after " + Describe.duration(after))
                .orElse("reset by the user only") + (permissions.headless() ? ", headless: abort when open" : "")));
    }

    private void clients() {
        var lines = new ArrayList<String>();
        config.clients().values().forEach(client -> lines.add(client.name() + ": tenant " + client.tenant() + ", key set"));
        section(lines.isEmpty() ? "Clients (no key needed; the tenant is the x-agentfuse-tenant header)"
                : "Clients (every model and MCP request needs one of their keys)", lines);
    }

    /** Each budget, and what it covers: its scope under this configuration, its limit, and what a spent one does. */
    private void budgets() {
        var lines = new ArrayList<String>();
        for (BudgetConfig budget : config.budgets().values()) {
            String limit = budget.tokens().isPresent() ? budget.tokens().getAsLong() + " tokens" : "";
            if (budget.cost().isPresent()) {
                limit += (limit.isEmpty() ? "" : " and ") + budget.cost().get().toPlainString() + " USD";
            }
            lines.add(budget.name() + ": " + limit + " per " + Describe.duration(budget.window()) + " "
                    + coverage(budget) + "; when spent: "
                    + budget.fallback().map(model -> "served by " + model).orElse("refused (429 budget_exceeded)"));
        }
        section("Budgets", lines);
    }

    private String coverage(BudgetConfig budget) {
        return switch (budget.scope()) {
            case TENANT -> config.clients().isEmpty() ? "per tenant (the x-agentfuse-tenant header; requests without it are not counted)"
                    : "per tenant (" + String.join(", ", config.clients().values().stream().map(ClientConfig::tenant)
                    .distinct().toList()) + ")";
            case KEY -> config.clients().isEmpty() ? "per client key: counts nothing, no clients: are configured"
                    : "per client key (" + String.join(", ", config.clients().keySet()) + ")";
            case SESSION -> "per session (the x-agentfuse-session header; requests without it are not counted)";
            case GLOBAL -> "for every request";
        };
    }

    private void section(String title, List<String> lines) {
        text.append('\n').append(title).append('\n');
        if (lines.isEmpty()) {
            text.append(INDENT).append("(none)").append('\n');
        }
        lines.forEach(line -> text.append(INDENT).append(line).append('\n'));
    }
}
