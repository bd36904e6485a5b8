package io.agentfuse.gateway.mcp;

import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.breaker.BoundedNames;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the proxy knows of each server's tools, from the {@code tools/list} answers it saw: which
 * names exist and which are idempotent ({@code annotations.idempotentHint: true}, the only ones
 * retried unless the config says otherwise). It decides the one name under which a called tool
 * is guarded and counted ({@link #breakerTool}), so that a caller cannot grow the gateway's state
 * by inventing names: a tool the server listed, or that {@code tools:} configures, has its own
 * breaker {@code tool:<server>/<tool>} and its own {@code tool} tag; while the server has listed
 * nothing yet, the first {@value #PROVISIONAL_TOOLS} names called get theirs too; every other name
 * is counted under {@value #UNLISTED} and runs with no tool breaker ({@link ToolCallRunner}): one
 * caller's invented names must not open a breaker that another caller's real tool then hits. A server lists at most {@value #MAX_TOOLS_PER_SERVER}
 * tools of its own, and names that could forge a log line (a newline) or are over
 * {@value #MAX_NAME_LENGTH} characters are never admitted ({@link BoundedNames}).
 * It also adds the note of {@code annotateTools} to an open tool's description. Thread-safe.
 */
final class ToolCatalog {

    /** The metric tag of calls of tools the server did not list (they have no breaker); no MCP tool name has parentheses. */
    static final String UNLISTED = "(unlisted)";
    static final int MAX_TOOLS_PER_SERVER = 512;
    static final int PROVISIONAL_TOOLS = 32;
    /** The longest tool name the MCP specification recommends. */
    static final int MAX_NAME_LENGTH = 128;

    private final CircuitBreakerRegistry breakers;
    private final Map<String, ServerTools> servers = new ConcurrentHashMap<>();

    ToolCatalog(CircuitBreakerRegistry breakers) {
        this.breakers = breakers;
    }

    /** The tools of one server: listed ones, those admitted before any list, and which are idempotent. */
    private static final class ServerTools {
        final BoundedNames listed = new BoundedNames(MAX_TOOLS_PER_SERVER, MAX_NAME_LENGTH, UNLISTED);
        final BoundedNames provisional = new BoundedNames(PROVISIONAL_TOOLS, MAX_NAME_LENGTH, UNLISTED);
        final Map<String, Boolean> idempotent = new ConcurrentHashMap<>();
        volatile boolean hasListed;
    }

    /**
     * The name {@code tool} of {@code server} is guarded and counted under: itself when the server
     * listed it, {@code tools:} configures it, or the server has listed nothing yet and there is
     * room; else {@link #UNLISTED}.
     */
    String breakerTool(McpServerConfig server, String tool) {
        ServerTools tools = tools(server.name());
        if (tools.listed.contains(tool) || tools.provisional.contains(tool)) {
            return tool;
        }
        if (server.overrides().containsKey(tool) && BoundedNames.isPlain(tool, MAX_NAME_LENGTH)) {
            return tool;
        }
        return tools.hasListed ? UNLISTED : tools.provisional.admit(tool);
    }

    /** Whether {@code server} listed {@code tool} as idempotent (false when unknown: never retry blindly). */
    boolean isIdempotent(String server, String tool) {
        return Boolean.TRUE.equals(tools(server).idempotent.get(tool));
    }

    /** Learns the tools of a {@code tools/list} response message. */
    void learn(String server, JsonObject response) {
        tools(response).ifPresent(list -> {
            ServerTools tools = tools(server);
            for (Object entry : list) {
                if (entry instanceof JsonObject tool && tool.getValue("name") instanceof String name
                        && tools.listed.admit(name).equals(name)) {
                    boolean hint = tool.getValue("annotations") instanceof JsonObject annotations
                            && Boolean.TRUE.equals(annotations.getValue("idempotentHint"));
                    tools.idempotent.put(name, hint);
                }
            }
            tools.hasListed = true;
        });
    }

    /**
     * A copy of the {@code tools/list} response in which every tool whose breaker is open says so in
     * its description, or empty when no tool is open (the answer is then relayed untouched). Tools
     * are never removed: agents must not see tools vanish while a breaker trips.
     */
    Optional<JsonObject> annotate(String server, JsonObject response) {
        Optional<JsonArray> list = tools(response);
        if (list.isEmpty()) {
            return Optional.empty();
        }
        JsonObject copy = response.copy();
        boolean changed = false;
        for (Object entry : copy.getJsonObject("result").getJsonArray("tools")) {
            if (entry instanceof JsonObject tool && tool.getValue("name") instanceof String name) {
                Optional<CircuitBreaker> breaker = breakers.find("tool:" + server + "/" + name)
                        .filter(found -> found.state().rejectsCalls());
                if (breaker.isPresent()) {
                    ProxyAnswers.noteUnavailable(tool, "its circuit breaker is open, calls fail fast for "
                            + ProxyAnswers.retryAfterSeconds(breaker.get()) + " s");
                    changed = true;
                }
            }
        }
        return changed ? Optional.of(copy) : Optional.empty();
    }

    private ServerTools tools(String server) {
        return servers.computeIfAbsent(server, key -> new ServerTools());
    }

    /** The {@code result.tools} of a {@code tools/list} response message, if it has them. */
    static Optional<JsonArray> tools(JsonObject response) {
        return response.getValue("result") instanceof JsonObject result && result.getValue("tools") instanceof JsonArray list
                ? Optional.of(list) : Optional.empty();
    }
}
