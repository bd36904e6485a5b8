package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.sse.SseEventTooLongException;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.buffer.Buffer;

/**
 * Reads an MCP server's SSE answer to one request as it comes and tells when the JSON-RPC response
 * to that request's id has arrived ({@link McpAnswer#answers}). The streamable-HTTP transport lets a
 * server keep the stream open after it (it SHOULD close it); a client is done with it then, so the
 * proxy stops reading there instead of waiting for an end that may never come.
 *
 * <p>Not thread-safe: one per answer, fed on its event loop.
 */
final class SseResponseWatch {

    private final SseParser parser;
    private boolean responded;

    /** A watch for the response to the request {@code id}. */
    SseResponseWatch(Object id) {
        this.parser = new SseParser(event -> {
            if (event.event() == null || "message".equals(event.event())) {
                McpAnswer.parse(event.data()).filter(message -> McpAnswer.answers(message, id))
                        .ifPresent(message -> responded = true);
            }
        });
    }

    /**
     * Reads {@code chunk}; true once the response has come (in this chunk or before).
     *
     * @throws McpAnswerTooLargeException when an event is longer than the proxy parses
     */
    boolean responded(Buffer chunk) {
        if (!responded) {
            try {
                parser.feed(chunk);
            } catch (SseEventTooLongException tooLong) {
                throw McpAnswer.eventTooLarge();
            }
        }
        return responded;
    }
}
