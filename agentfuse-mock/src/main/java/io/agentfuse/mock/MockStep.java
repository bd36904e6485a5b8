package io.agentfuse.mock;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One scripted answer of the {@link MockProvider}: what status to send, after how long, with
 * which headers and body, how to stream it, and whether to drop the connection instead.
 *
 * <p>Immutable and thread-safe. Every field has a default, so {@code MockStep.builder().build()}
 * is a plain, immediate success. In JSON (the control API) the field names are the same as the
 * builder's methods:
 *
 * <pre>{@code
 * {"status": 429, "retryAfter": "2", "times": 2}
 * {"delayMs": 2000}
 * {"chunks": ["Hel", "lo"], "firstChunkDelayMs": 500, "chunkDelayMs": 50, "inputTokens": 12, "outputTokens": 2}
 * {"drop": "midStream", "dropAfterChunks": 1}
 * {"toolCalls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]}
 * {"status": 429, "errorType": "ModelNotReadyException"}
 * {"streamError": 529, "streamErrorAfterChunks": 2}
 * {"inputTokens": 100000, "cacheReadTokens": 95000, "cacheWriteTokens": 2000}
 * }</pre>
 *
 * @param status          HTTP status; default 200
 * @param body            the exact body to send (a JSON object, a string, or a {@link Buffer} of bytes
 *                        sent as they are: a binary event stream), or {@code null} to generate one in
 *                        the request's dialect (a success or an error body)
 * @param text            the assistant text of a generated success; default {@link #DEFAULT_TEXT}
 * @param toolCalls       tool calls of a generated success; default none
 * @param finishReason    {@code stop}, {@code length}, {@code tool_calls}, {@code stop_sequence} or
 *                        {@code content_filter}; default {@code tool_calls} when there are tool calls, else {@code stop}
 * @param delayMs         wait before answering (before the status line); default 0
 * @param retryAfter      value of a {@code Retry-After} header, or {@code null}
 * @param retryAfterMs    value of a {@code retry-after-ms} header, or {@code null}
 * @param headers         extra response headers
 * @param inputTokens     input tokens reported in {@code usage}; default 10
 * @param outputTokens    output tokens reported in {@code usage}; default: the number of chunks
 * @param chunks          text pieces of a streamed answer; default: {@code text} split after spaces
 * @param firstChunkDelayMs wait between the status line and the first streamed piece; default 0
 * @param chunkDelayMs    wait between streamed pieces; default 0
 * @param drop            {@link Drop#NONE}, or close the connection instead of answering
 * @param dropAfterChunks for {@link Drop#MID_STREAM}: pieces sent before closing; default 1
 * @param times           how many requests this step answers; default 1
 * @param errorType       the provider's own name of the error to report for an error {@code status} or a
 *                        {@code streamError} ({@code ModelNotReadyException}, {@code content_filter},
 *                        {@code RESOURCE_EXHAUSTED}, …), where the dialect has several for one status;
 *                        default {@code null}: the dialect's usual error for the status
 * @param streamError     the status whose in-stream error event ends a streamed success (an error inside a
 *                        200 stream, in the dialect's own form), or {@code null} for none
 * @param streamErrorAfterChunks for {@code streamError}: pieces sent before the error; default 1
 * @param cacheReadTokens  of {@code inputTokens}, those read from the prompt cache, reported as each dialect does; default 0
 * @param cacheWriteTokens of {@code inputTokens}, those written to the prompt cache (Anthropic, Bedrock); default 0
 */
public record MockStep(int status, Object body, String text, List<MockToolCall> toolCalls,
                       String finishReason, long delayMs, String retryAfter, String retryAfterMs,
                       Map<String, String> headers, int inputTokens, Integer outputTokens,
                       List<String> chunks, long firstChunkDelayMs, long chunkDelayMs, Drop drop, int dropAfterChunks,
                       int times, String errorType, Integer streamError, int streamErrorAfterChunks, int cacheReadTokens,
                       int cacheWriteTokens) {

    /** The assistant text of a generated success when none is given. */
    public static final String DEFAULT_TEXT = "Hello from the mock provider.";

    private static final Set<String> FINISH_REASONS = Set.of("stop", "length", "tool_calls", "stop_sequence",
            "content_filter");
    private static final Set<String> FIELDS = Set.of("status", "body", "text", "toolCalls", "finishReason",
            "delayMs", "retryAfter", "retryAfterMs", "headers", "inputTokens", "outputTokens", "chunks",
            "firstChunkDelayMs", "chunkDelayMs", "drop", "dropAfterChunks", "times", "errorType", "streamError",
            "streamErrorAfterChunks", "cacheReadTokens", "cacheWriteTokens");

    /** How the mock breaks the connection instead of answering properly. */
    public enum Drop {
        /** Answer normally. */
        NONE,
        /** Close the connection without sending a status line. */
        BEFORE_RESPONSE,
        /** Send the status line and {@code dropAfterChunks} pieces, then close the connection. */
        MID_STREAM
    }

    /** A tool call in a generated success. {@code arguments} is a JSON object. */
    public record MockToolCall(String id, String name, JsonObject arguments) {
        public MockToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            arguments = arguments == null ? new JsonObject() : arguments.copy();
        }
    }

    public MockStep {
        require(status >= 100 && status <= 599, "status must be in 100..599, but was " + status);
        require(body == null || body instanceof String || body instanceof JsonObject || body instanceof Buffer,
                "body must be a JSON object, a string or bytes, but was " + body);
        require(finishReason == null || FINISH_REASONS.contains(finishReason),
                "finishReason must be one of " + FINISH_REASONS + ", but was " + finishReason);
        require(delayMs >= 0, "delayMs must be >= 0, but was " + delayMs);
        require(firstChunkDelayMs >= 0, "firstChunkDelayMs must be >= 0, but was " + firstChunkDelayMs);
        require(chunkDelayMs >= 0, "chunkDelayMs must be >= 0, but was " + chunkDelayMs);
        require(inputTokens >= 0, "inputTokens must be >= 0, but was " + inputTokens);
        require(outputTokens == null || outputTokens >= 0, "outputTokens must be >= 0, but was " + outputTokens);
        require(cacheReadTokens >= 0 && cacheWriteTokens >= 0 && (long) cacheReadTokens + cacheWriteTokens <= inputTokens,
                "cache tokens must be >= 0 and within inputTokens, but were " + cacheReadTokens + " + " + cacheWriteTokens);
        require(dropAfterChunks >= 0, "dropAfterChunks must be >= 0, but was " + dropAfterChunks);
        require(times >= 1, "times must be >= 1, but was " + times);
        require(chunks == null || !chunks.isEmpty(), "chunks must not be empty");
        require(streamError == null || streamError >= 400 && streamError <= 599,
                "streamError must be in 400..599, but was " + streamError);
        require(streamErrorAfterChunks >= 0, "streamErrorAfterChunks must be >= 0, but was " + streamErrorAfterChunks);
        body = copy(body);
        text = text == null ? DEFAULT_TEXT : text;
        toolCalls = List.copyOf(toolCalls == null ? List.of() : toolCalls);
        headers = Map.copyOf(headers == null ? Map.of() : headers);
        chunks = chunks == null ? splitAfterSpaces(text) : List.copyOf(chunks);
        drop = drop == null ? Drop.NONE : drop;
    }

    /** A builder whose defaults make an immediate 200 success. */
    public static Builder builder() {
        return new Builder();
    }

    /** The body to send, a defensive copy when it is a JSON object or bytes. */
    @Override
    public Object body() {
        return copy(body);
    }

    private static Object copy(Object body) {
        return body instanceof JsonObject json ? json.copy() : body instanceof Buffer bytes ? bytes.copy() : body;
    }

    /** The finish reason to report, in the terms of {@link #finishReason}. */
    public String effectiveFinishReason() {
        if (finishReason != null) {
            return finishReason;
        }
        return toolCalls.isEmpty() ? "stop" : "tool_calls";
    }

    /** The output tokens to report. */
    public int effectiveOutputTokens() {
        return outputTokens != null ? outputTokens : chunks.size() + toolCalls.size();
    }

    /** Whether the step answers with a success status. */
    public boolean succeeds() {
        return status >= 200 && status < 300;
    }

    /**
     * Reads a step from its JSON form, rejecting unknown fields and wrong types with a message
     * that names the field.
     *
     * @throws IllegalArgumentException when the JSON does not describe a valid step
     */
    public static MockStep fromJson(JsonObject json) {
        for (String field : json.fieldNames()) {
            require(FIELDS.contains(field), "unknown step field '" + field + "', expected one of " + FIELDS);
        }
        try {
            Builder b = builder();
            b.status(json.getInteger("status", 200));
            b.body(json.getValue("body"));
            b.text(json.getString("text"));
            JsonArray calls = json.getJsonArray("toolCalls", new JsonArray());
            for (int i = 0; i < calls.size(); i++) {
                JsonObject call = calls.getJsonObject(i);
                b.toolCall(call.getString("id", "call_" + i), call.getString("name"), call.getJsonObject("arguments"));
            }
            b.finishReason(json.getString("finishReason"));
            b.delayMs(json.getLong("delayMs", 0L));
            b.retryAfter(json.getValue("retryAfter") == null ? null : String.valueOf(json.getValue("retryAfter")));
            b.retryAfterMs(json.getValue("retryAfterMs") == null ? null : String.valueOf(json.getValue("retryAfterMs")));
            json.getJsonObject("headers", new JsonObject()).forEach(e -> b.header(e.getKey(), String.valueOf(e.getValue())));
            b.inputTokens(json.getInteger("inputTokens", 10));
            b.outputTokens(json.getInteger("outputTokens"));
            JsonArray chunks = json.getJsonArray("chunks");
            if (chunks != null) {
                List<String> pieces = new ArrayList<>();
                chunks.forEach(piece -> pieces.add(String.valueOf(piece)));
                b.chunks(pieces);
            }
            b.firstChunkDelayMs(json.getLong("firstChunkDelayMs", 0L));
            b.chunkDelayMs(json.getLong("chunkDelayMs", 0L));
            b.drop(parseDrop(json.getString("drop", "none")));
            b.dropAfterChunks(json.getInteger("dropAfterChunks", 1));
            b.times(json.getInteger("times", 1));
            b.errorType(json.getString("errorType"));
            b.streamError(json.getInteger("streamError"));
            b.streamErrorAfterChunks(json.getInteger("streamErrorAfterChunks", 1));
            b.cacheReadTokens(json.getInteger("cacheReadTokens", 0)).cacheWriteTokens(json.getInteger("cacheWriteTokens", 0));
            return b.build();
        } catch (ClassCastException e) {
            throw new IllegalArgumentException("a step field has the wrong type: " + e.getMessage(), e);
        }
    }

    private static Drop parseDrop(String value) {
        return switch (value) {
            case "none" -> Drop.NONE;
            case "beforeResponse" -> Drop.BEFORE_RESPONSE;
            case "midStream" -> Drop.MID_STREAM;
            default -> throw new IllegalArgumentException(
                    "drop must be one of none, beforeResponse, midStream, but was " + value);
        };
    }

    private static List<String> splitAfterSpaces(String text) {
        List<String> pieces = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == ' ') {
                pieces.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length() || pieces.isEmpty()) {
            pieces.add(text.substring(start));
        }
        return pieces;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Collects the fields of a {@link MockStep}; not thread-safe. */
    public static final class Builder {
        private int status = 200;
        private Object body;
        private String text;
        private final List<MockToolCall> toolCalls = new ArrayList<>();
        private String finishReason;
        private long delayMs;
        private String retryAfter;
        private String retryAfterMs;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private int inputTokens = 10;
        private Integer outputTokens;
        private List<String> chunks;
        private long firstChunkDelayMs;
        private long chunkDelayMs;
        private Drop drop = Drop.NONE;
        private int dropAfterChunks = 1;
        private int times = 1;
        private String errorType;
        private Integer streamError;
        private int streamErrorAfterChunks = 1;
        private int cacheReadTokens;
        private int cacheWriteTokens;

        private Builder() {
        }

        public Builder status(int status) { this.status = status; return this; }
        public Builder body(Object body) { this.body = body; return this; }
        public Builder text(String text) { this.text = text; return this; }
        public Builder toolCall(String id, String name, JsonObject arguments) {
            toolCalls.add(new MockToolCall(id, name, arguments));
            return this;
        }
        public Builder finishReason(String finishReason) { this.finishReason = finishReason; return this; }
        public Builder delayMs(long delayMs) { this.delayMs = delayMs; return this; }
        public Builder retryAfter(String retryAfter) { this.retryAfter = retryAfter; return this; }
        public Builder retryAfterMs(String retryAfterMs) { this.retryAfterMs = retryAfterMs; return this; }
        public Builder header(String name, String value) { headers.put(name, value); return this; }
        public Builder inputTokens(int inputTokens) { this.inputTokens = inputTokens; return this; }
        public Builder outputTokens(Integer outputTokens) { this.outputTokens = outputTokens; return this; }
        public Builder chunks(List<String> chunks) { this.chunks = chunks; return this; }
        public Builder chunks(String... chunks) { this.chunks = List.of(chunks); return this; }
        public Builder firstChunkDelayMs(long firstChunkDelayMs) { this.firstChunkDelayMs = firstChunkDelayMs; return this; }
        public Builder chunkDelayMs(long chunkDelayMs) { this.chunkDelayMs = chunkDelayMs; return this; }
        public Builder drop(Drop drop) { this.drop = drop; return this; }
        public Builder dropAfterChunks(int dropAfterChunks) { this.dropAfterChunks = dropAfterChunks; return this; }
        public Builder times(int times) { this.times = times; return this; }
        public Builder errorType(String errorType) { this.errorType = errorType; return this; }
        public Builder streamError(Integer streamError) { this.streamError = streamError; return this; }
        public Builder streamErrorAfterChunks(int afterChunks) { this.streamErrorAfterChunks = afterChunks; return this; }
        public Builder cacheReadTokens(int cacheReadTokens) { this.cacheReadTokens = cacheReadTokens; return this; }
        public Builder cacheWriteTokens(int cacheWriteTokens) { this.cacheWriteTokens = cacheWriteTokens; return this; }

        /** The validated step. @throws IllegalArgumentException naming the bad field and value */
        public MockStep build() {
            return new MockStep(status, body, text, toolCalls, finishReason, delayMs, retryAfter, retryAfterMs,
                    headers, inputTokens, outputTokens, chunks, firstChunkDelayMs, chunkDelayMs, drop, dropAfterChunks, times,
                    errorType, streamError, streamErrorAfterChunks, cacheReadTokens, cacheWriteTokens);
        }
    }
}
