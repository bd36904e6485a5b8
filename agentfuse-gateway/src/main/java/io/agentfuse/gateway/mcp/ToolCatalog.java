package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the proxy learned of each server's tools from the {@code tools/list} answers it relayed:
 * which are idempotent ({@code annotations.idempotentHint: true}, the only ones retried unless the
 * config says otherwise), and which names exist (the {@code tool} tag of metrics holds at most
 * {@value #MAX_TOOLS_PER_SERVER} names per server, so a client cannot grow the number of series).
 * It also adds the note of {@code annotateTools} to an open tool's description. Thread-safe.
 */
final class ToolCatalog {

    /** The {@code tool} tag of calls of names beyond the bound. */
    static final String OTHER_TOOL = "_other";
    static final int MAX_TOOLS_PER_SERVER = 256;

    private final CircuitBreakerRegistry breakers;
    private final Map<String, Map<String, Boolean>> idempotent = new ConcurrentHashMap<>();

    ToolCatalog(CircuitBreakerRegistry breakers) {
        this.breakers = breakers;
    }

    /** Whether {@code server} listed {@code tool} as idempotent (false when unknown: never retry blindly). */
    boolean isIdempotent(String server, String tool) {
        return Boolean.TRUE.equals(idempotent.getOrDefault(server, Map.of()).get(tool));
    }

    /** The {@code tool} tag for metrics: the name when it is known or there is room, else {@link #OTHER_TOOL}. */
    String metricName(String server, String tool) {
        Map<String, Boolean> tools = tools(server);
        if (tools.containsKey(tool)) {
            return tool;
        }
        if (tools.size() < MAX_TOOLS_PER_SERVER) {
            tools.putIfAbsent(tool, false);
            return tool;
        }
        return OTHER_TOOL;
    }

    /** Learns the tools of a {@code tools/list} response message. */
    void learn(String server, JsonObject response) {
        tools(response).ifPresent(list -> {
            Map<String, Boolean> tools = tools(server);
            for (Object entry : list) {
                if (entry instanceof JsonObject tool && tool.getValue("name") instanceof String name
                        && (tools.containsKey(name) || tools.size() < MAX_TOOLS_PER_SERVER)) {
                    boolean hint = tool.getValue("annotations") instanceof JsonObject annotations
                            && Boolean.TRUE.equals(annotations.getValue("idempotentHint"));
                    tools.put(name, hint);
                }
            }
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
                    String description = tool.getValue("description") instanceof String text ? text + " " : "";
                    tool.put("description", description + "[agentfuse: this tool is failing; its circuit breaker is open, "
                            + "calls fail fast for " + ProxyAnswers.retryAfterSeconds(breaker.get()) + " s]");
                    changed = true;
                }
            }
        }
        return changed ? Optional.of(copy) : Optional.empty();
    }

    private Map<String, Boolean> tools(String server) {
        return idempotent.computeIfAbsent(server, key -> new ConcurrentHashMap<>());
    }

    private static Optional<JsonArray> tools(JsonObject response) {
        return response.getValue("result") instanceof JsonObject result && result.getValue("tools") instanceof JsonArray list
                ? Optional.of(list) : Optional.empty();
    }
}
