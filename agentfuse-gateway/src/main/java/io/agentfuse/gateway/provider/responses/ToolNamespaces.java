package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.ToolDefinition;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions of a Responses caller's {@code namespace} tools, by the flattened name the other
 * dialect knew them by ({@code multi_agent_v1__close_agent}), so that a translated answer's call
 * names its namespace again ({@code "namespace": "multi_agent_v1", "name": "close_agent"}), as the
 * caller declared it. A name the caller's namespaces do not hold is left as it is: a plain function
 * may have {@code __} in its name too.
 *
 * <p>Immutable and thread-safe. {@code ToolNamespaces.of(request.tools()).writeName(item, "ns__f")}
 */
final class ToolNamespaces {

    static final ToolNamespaces NONE = new ToolNamespaces(Map.of());

    private final Map<String, ToolDefinition> byFlatName;

    private ToolNamespaces(Map<String, ToolDefinition> byFlatName) {
        this.byFlatName = byFlatName;
    }

    /** The namespaced functions among {@code tools} (a request's, as parsed); {@link #NONE} when there are none. */
    static ToolNamespaces of(List<ToolDefinition> tools) {
        Map<String, ToolDefinition> namespaced = null;
        for (ToolDefinition tool : tools) {
            if (tool.namespace() != null) {
                namespaced = namespaced == null ? new HashMap<>() : namespaced;
                namespaced.put(tool.name(), tool);
            }
        }
        return namespaced == null ? NONE : new ToolNamespaces(Map.copyOf(namespaced));
    }

    /** Puts the call's {@code name} on {@code item}, with its {@code namespace} when it was flattened from one. */
    JsonObject writeName(JsonObject item, String flatName) {
        ToolDefinition tool = byFlatName.get(flatName);
        if (tool == null) {
            return item.put("name", flatName);
        }
        return item.put("namespace", tool.namespace())
                .put("name", flatName.substring(tool.namespace().length() + ResponsesRequestParser.NAMESPACE_SEPARATOR.length()));
    }
}
