package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.sse.SseEventTooLongException;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One complete answer of an MCP server to a POST: its status, headers and body, kept byte for
 * byte so that the proxy can relay it untouched, plus a reading of the JSON-RPC response inside
 * it (the body itself, or the {@code message} events of an SSE stream).
 *
 * @param status  the HTTP status
 * @param headers the response headers
 * @param body    the body as received
 */
record McpAnswer(int status, MultiMap headers, Buffer body) {

    McpAnswer {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
    }

    /** Whether the body is an SSE stream. */
    boolean isEventStream() {
        return isEventStream(headers);
    }

    /** Whether a response with {@code headers} is an SSE stream. */
    static boolean isEventStream(MultiMap headers) {
        String type = headers.get("content-type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    /** This answer with its JSON-RPC message replaced by {@code message}, in the answer's own form (JSON or SSE). */
    McpAnswer withMessage(JsonObject message) {
        Buffer replaced = isEventStream() ? event(message) : message.toBuffer();
        MultiMap copied = MultiMap.caseInsensitiveMultiMap().addAll(headers);
        copied.remove("content-length");
        return new McpAnswer(status, copied, replaced);
    }

    /** {@code message} as one SSE {@code message} event, the form of a JSON-RPC message in a streamed answer. */
    static Buffer event(JsonObject message) {
        return Buffer.buffer("event: message\ndata: " + message.encode() + "\n\n");
    }

    /**
     * The JSON-RPC response to the request {@code id} in this answer, if there is a well-formed one:
     * a message with that id and a {@code result} or an {@code error}.
     *
     * @throws McpAnswerTooLargeException when an SSE event of the body is longer than the proxy parses
     */
    Optional<JsonObject> response(Object id) {
        for (JsonObject message : messages()) {
            if (answers(message, id)) {
                return Optional.of(message);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code message} is the JSON-RPC response to the request {@code id}: that id, and a result or an error. */
    static boolean answers(JsonObject message, Object id) {
        return Objects.equals(normalised(message.getValue("id")), normalised(id))
                && (message.containsKey("result") || message.containsKey("error"));
    }

    /**
     * The JSON-RPC messages of the body; none when it is not JSON-RPC at all.
     *
     * @throws McpAnswerTooLargeException when an SSE event of the body is longer than the proxy parses
     */
    List<JsonObject> messages() {
        List<JsonObject> messages = new ArrayList<>();
        if (isEventStream()) {
            SseParser parser = new SseParser(event -> {
                if (event.event() == null || "message".equals(event.event())) {
                    parse(event.data()).ifPresent(messages::add);
                }
            });
            try {
                parser.feed(body);
                parser.end();
            } catch (SseEventTooLongException tooLong) {
                throw eventTooLarge();
            }
        } else {
            parse(body.toString()).ifPresent(messages::add);
        }
        return messages;
    }

    /** The failure of an answer with an SSE event longer than the proxy parses. */
    static McpAnswerTooLargeException eventTooLarge() {
        return new McpAnswerTooLargeException("an SSE event of the MCP server's answer is larger than "
                + SseParser.DEFAULT_MAX_LINE_BYTES + " bytes (maxSseEvent)");
    }

    /** The JSON object {@code text} holds, if it is one. */
    static Optional<JsonObject> parse(String text) {
        try {
            return Optional.of(new JsonObject(text));
        } catch (DecodeException | ClassCastException e) {
            return Optional.empty();
        }
    }

    /** JSON numbers may come back as another numeric type; ids compare by value. */
    private static Object normalised(Object id) {
        return id instanceof Number number ? (Object) number.toString() : id;
    }
}
