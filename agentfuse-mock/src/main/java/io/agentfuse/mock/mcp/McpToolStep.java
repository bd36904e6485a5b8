package io.agentfuse.mock.mcp;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * One scripted answer of a tool of the {@link MockMcpServer}: a result (plain or {@code isError}),
 * a JSON-RPC error, a bare HTTP status, a delay, or a dropped connection.
 *
 * <p>Immutable and thread-safe. Every field has a default, so {@code McpToolStep.builder().build()}
 * is an immediate successful result. In JSON (the control API) the field names are the builder's:
 *
 * <pre>{@code
 * {"text": "42 rows"}
 * {"isError": true, "text": "database temporarily unavailable", "times": 3}
 * {"errorCode": -32603, "errorMessage": "internal error"}
 * {"status": 500}
 * {"delayMs": 2000}
 * {"drop": true}
 * {"sse": true}
 * }</pre>
 *
 * @param text         the text of the result's one content block; default {@code "ok"}
 * @param isError      whether the result says {@code isError: true}; default false
 * @param errorCode    a JSON-RPC error code to answer instead of a result, or {@code null}
 * @param errorMessage the JSON-RPC error's message; default {@code "tool failed"}
 * @param status       the HTTP status; a non-2xx status is sent with a plain-text body and no JSON-RPC; default 200
 * @param delayMs      wait before answering; default 0
 * @param drop         close the connection instead of answering; default false
 * @param sse          answer as an SSE stream ({@code true}), as JSON ({@code false}), or as the server is set ({@code null})
 * @param times        how many calls this step answers; default 1
 */
public record McpToolStep(String text, boolean isError, Integer errorCode, String errorMessage, int status,
                          long delayMs, boolean drop, Boolean sse, int times) {

    private static final Set<String> FIELDS = Set.of("text", "isError", "errorCode", "errorMessage", "status",
            "delayMs", "drop", "sse", "times");

    public McpToolStep {
        require(status >= 100 && status <= 599, "status must be in 100..599, but was " + status);
        require(delayMs >= 0, "delayMs must be >= 0, but was " + delayMs);
        require(times >= 1, "times must be >= 1, but was " + times);
        text = text == null ? "ok" : text;
        errorMessage = errorMessage == null ? "tool failed" : errorMessage;
    }

    /** A builder whose defaults make an immediate successful result. */
    public static Builder builder() {
        return new Builder();
    }

    /** A successful result with {@code text}. */
    public static McpToolStep result(String text) {
        return builder().text(text).build();
    }

    /** An {@code isError: true} result with {@code text}, answering {@code times} calls. */
    public static McpToolStep toolError(String text, int times) {
        return builder().isError(true).text(text).times(times).build();
    }

    /** A bare HTTP {@code status}, answering {@code times} calls. */
    public static McpToolStep httpStatus(int status, int times) {
        return builder().status(status).times(times).build();
    }

    /**
     * Reads a step from its JSON form, rejecting unknown fields and wrong types with a message
     * that names the field.
     *
     * @throws IllegalArgumentException when the JSON does not describe a valid step
     */
    public static McpToolStep fromJson(JsonObject json) {
        for (String field : json.fieldNames()) {
            require(FIELDS.contains(field), "unknown step field '" + field + "', expected one of " + FIELDS);
        }
        try {
            return builder()
                    .text(json.getString("text"))
                    .isError(json.getBoolean("isError", false))
                    .errorCode(json.getInteger("errorCode"))
                    .errorMessage(json.getString("errorMessage"))
                    .status(json.getInteger("status", 200))
                    .delayMs(json.getLong("delayMs", 0L))
                    .drop(json.getBoolean("drop", false))
                    .sse(json.getBoolean("sse"))
                    .times(json.getInteger("times", 1))
                    .build();
        } catch (ClassCastException e) {
            throw new IllegalArgumentException("a step field has the wrong type: " + e.getMessage(), e);
        }
    }

    /** The JSON-RPC {@code result} of a successful or {@code isError} answer. */
    JsonObject toResult() {
        return new JsonObject()
                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", text)))
                .put("isError", isError);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Collects the fields of a {@link McpToolStep}; not thread-safe. */
    public static final class Builder {
        private String text;
        private boolean isError;
        private Integer errorCode;
        private String errorMessage;
        private int status = 200;
        private long delayMs;
        private boolean drop;
        private Boolean sse;
        private int times = 1;

        private Builder() {
        }

        public Builder text(String text) { this.text = text; return this; }
        public Builder isError(boolean isError) { this.isError = isError; return this; }
        public Builder errorCode(Integer errorCode) { this.errorCode = errorCode; return this; }
        public Builder errorMessage(String errorMessage) { this.errorMessage = errorMessage; return this; }
        public Builder status(int status) { this.status = status; return this; }
        public Builder delayMs(long delayMs) { this.delayMs = delayMs; return this; }
        public Builder drop(boolean drop) { this.drop = drop; return this; }
        public Builder sse(Boolean sse) { this.sse = sse; return this; }
        public Builder times(int times) { this.times = times; return this; }

        /** The validated step. @throws IllegalArgumentException naming the bad field and value */
        public McpToolStep build() {
            return new McpToolStep(text, isError, errorCode, errorMessage, status, delayMs, drop, sse, times);
        }
    }
}
