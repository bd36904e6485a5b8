package io.agentfuse.mock.mcp;

import io.vertx.core.json.JsonObject;

import java.util.Objects;

/**
 * A tool that the {@link MockMcpServer} lists in {@code tools/list}, with its annotations
 * (what the proxy reads {@code idempotentHint} from).
 *
 * <pre>{@code
 * McpMockTool.of("query", "Runs a read-only SQL query").idempotent(true)
 * }</pre>
 *
 * @param name        the tool's name
 * @param description its description
 * @param annotations its {@code annotations} object ({@code idempotentHint}, {@code readOnlyHint}, ...)
 */
public record McpMockTool(String name, String description, JsonObject annotations) {

    public McpMockTool {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a tool name must not be blank");
        }
        description = description == null ? "" : description;
        annotations = annotations == null ? new JsonObject() : annotations.copy();
    }

    /** A tool without annotations. */
    public static McpMockTool of(String name, String description) {
        return new McpMockTool(name, description, null);
    }

    /** This tool with {@code annotations.idempotentHint} set to {@code idempotent}. */
    public McpMockTool idempotent(boolean idempotent) {
        return new McpMockTool(name, description, annotations.copy().put("idempotentHint", idempotent));
    }

    /** Reads a tool from its {@code tools/list} JSON form. */
    public static McpMockTool fromJson(JsonObject json) {
        return new McpMockTool(json.getString("name"), json.getString("description"), json.getJsonObject("annotations"));
    }

    /** The tool as {@code tools/list} lists it. */
    public JsonObject toJson() {
        JsonObject json = new JsonObject().put("name", name).put("description", description)
                .put("inputSchema", new JsonObject().put("type", "object"));
        return annotations.isEmpty() ? json : json.put("annotations", annotations.copy());
    }
}
