package io.agentfuse.gateway.dialect;

import io.vertx.core.json.JsonObject;

import java.util.Objects;

/**
 * A tool the model may call: OpenAI's {@code {"type": "function", "function": {name, description,
 * parameters}}} and Anthropic's {@code {name, description, input_schema}} are the same thing.
 *
 * <p>Immutable: the schema is taken over as given (part of a request body nobody changes) and
 * copied out.
 *
 * @param name        the tool name; for a function of an OpenAI Responses {@code namespace} tool,
 *                    {@code namespace__name} (the other dialects have no namespaces)
 * @param description what it does, or {@code null}
 * @param parameters  the JSON Schema of its arguments (an object schema)
 * @param namespace   the Responses namespace the tool was flattened from, or {@code null}
 */
public record ToolDefinition(String name, String description, JsonObject parameters, String namespace) {

    /** A tool of no namespace. */
    public ToolDefinition(String name, String description, JsonObject parameters) {
        this(name, description, parameters, null);
    }

    /** The schema used when a tool declares none: an object with no properties. */
    public static JsonObject emptySchema() {
        return new JsonObject().put("type", "object").put("properties", new JsonObject());
    }

    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        // Taken over as parsed, not copied: it is part of the request body, which nobody changes.
        parameters = parameters == null ? emptySchema() : parameters;
    }

    /**
     * The schema as parsed, the very object of the request body: for a reader that only looks (the
     * context ladder counts its text, and keeps that text on it), never to change.
     */
    public JsonObject parametersAsParsed() {
        return parameters;
    }

    /** A copy of the schema, to change freely. */
    @Override
    public JsonObject parameters() {
        return parameters.copy();
    }
}
