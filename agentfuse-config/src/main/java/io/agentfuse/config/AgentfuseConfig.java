package io.agentfuse.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A whole agentfuse configuration file, loaded, interpolated, validated and resolved: the root
 * of the model of docs/design.md §6.
 *
 * <p>An instance that {@link ConfigLoader} returns is consistent: every reference resolves
 * (models to providers, fallbacks and {@code compactModel} to models, {@code breaker} names to
 * breakers), every value is in range, every default is filled in from {@link ConfigDefaults}.
 * Maps keep the order of the file. Immutable and thread-safe; two loads of the same file are
 * {@linkplain #equals(Object) equal}, and so are their parts, which lets a reload tell which
 * breakers changed.
 *
 * <pre>{@code
 * AgentfuseConfig config = ConfigLoader.load(Path.of("agentfuse.yaml"));
 * ModelConfig sonnet = config.model("claude-sonnet-4").orElseThrow();
 * ProviderConfig anthropic = config.providerOf(sonnet);
 * List<ModelConfig> chain = config.chainFor("claude-sonnet-4", false); // sonnet, haiku, gpt-4o-mini
 * ToolConfig search = config.mcpTool("search", "web_search");
 * }</pre>
 *
 * @param server      the {@code server:} section
 * @param state       the {@code state:} section
 * @param providers   the {@code providers:} section, by name
 * @param retry       the top-level {@code retry:} section (models hold their merged copy)
 * @param breakers    the {@code breakers:} section by name; always holds {@code default}
 * @param models      the {@code models:} section, by name
 * @param subagents   the {@code subagents:} section
 * @param mcpServers  the {@code mcpServers:} section, by name
 * @param tools       the {@code tools:} section by key ({@code tool} or {@code server/tool}), resolved
 * @param context     the {@code context:} section
 * @param permissions the {@code permissions:} section
 * @param mcp         the {@code mcp:} section (the aggregate endpoint)
 * @param observability the {@code observability:} section (traces)
 * @param clients     the {@code clients:} section by name; empty when callers need no key
 * @param budgets     the {@code budgets:} section by name, in the file's order
 */
public record AgentfuseConfig(ServerConfig server, StateConfig state, Map<String, ProviderConfig> providers,
                              RetryConfig retry, Map<String, BreakerConfig> breakers,
                              Map<String, ModelConfig> models, SubagentsConfig subagents,
                              Map<String, McpServerConfig> mcpServers, Map<String, ToolConfig> tools,
                              ContextBudgetConfig context, PermissionsConfig permissions, McpConfig mcp,
                              ObservabilityConfig observability,
                              Map<String, ClientConfig> clients, Map<String, BudgetConfig> budgets) {

    public AgentfuseConfig {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(observability, "observability");
        Objects.requireNonNull(state, "state");
        providers = ordered(providers);
        Objects.requireNonNull(retry, "retry");
        breakers = ordered(breakers);
        models = ordered(models);
        Objects.requireNonNull(subagents, "subagents");
        mcpServers = ordered(mcpServers);
        tools = ordered(tools);
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(permissions, "permissions");
        Objects.requireNonNull(mcp, "mcp");
        clients = ordered(clients);
        budgets = ordered(budgets);
    }

    /**
     * The configuration of a file that sets nothing ({@code {}}), bound as such a file is, so the
     * two cannot drift apart: the built-in providers without credentials, every
     * default, and the models the defaults name ({@code subagents.fallbacks} and
     * {@code context.compactModel}), each a model of its family ({@link ModelFamilies#modelOf});
     * no servers or tools.
     */
    public static AgentfuseConfig defaults() {
        return Defaults.CONFIG;
    }

    /** Bound on first use, not when this class loads: binding builds instances of it. */
    private static final class Defaults {
        static final AgentfuseConfig CONFIG = ConfigLoader.parse("{}", "the built-in defaults", Map.of());
    }

    /** The model named {@code name}, if configured. */
    public Optional<ModelConfig> model(String name) {
        return Optional.ofNullable(models.get(name));
    }

    /** The provider that serves {@code model}. */
    public ProviderConfig providerOf(ModelConfig model) {
        ProviderConfig provider = providers.get(model.provider());
        if (provider == null) {
            throw new IllegalArgumentException("model " + model.name() + " names provider "
                    + model.provider() + ", which is not configured");
        }
        return provider;
    }

    /**
     * The models to try for a request for {@code model}, in order: the model itself, then its
     * own fallbacks, or, when it has none and the request comes from a subagent, the
     * {@code subagents.fallbacks} (without the model itself).
     *
     * @throws IllegalArgumentException if {@code model} is not configured
     */
    public List<ModelConfig> chainFor(String model, boolean subagent) {
        return chainFor(model(model).orElseThrow(
                () -> new IllegalArgumentException("model " + model + " is not configured")), subagent);
    }

    /**
     * The models to try for a request for {@code first}, configured or not (a model of a
     * built-in family without an entry, {@link AgentfuseRuntime#model}), as {@link #chainFor(String, boolean)}.
     */
    public List<ModelConfig> chainFor(ModelConfig first, boolean subagent) {
        List<String> fallbacks = first.fallbacks().isEmpty() && subagent ? subagents.fallbacks() : first.fallbacks();
        var chain = new ArrayList<ModelConfig>();
        chain.add(first);
        fallbacks.stream().filter(name -> !name.equals(first.name())).map(models::get).forEach(chain::add);
        return List.copyOf(chain);
    }

    /** The settings of a tool that is not behind an MCP server: its {@code tools:} entry, or the defaults. */
    public ToolConfig tool(String name) {
        return tools.getOrDefault(name, ConfigDefaults.TOOL);
    }

    /**
     * The settings of the tool {@code tool} of the MCP server {@code server}.
     *
     * @throws IllegalArgumentException if {@code server} is not configured
     */
    public ToolConfig mcpTool(String server, String tool) {
        McpServerConfig config = mcpServers.get(server);
        if (config == null) {
            throw new IllegalArgumentException("MCP server " + server + " is not configured");
        }
        return config.tool(tool);
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
