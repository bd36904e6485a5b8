package io.agentfuse.gateway.mcp;

import io.vertx.core.buffer.Buffer;

/**
 * Reads an SSE stream as it is relayed and tells where it may be cut so that what the proxy writes
 * after the cut is read as an event of its own: at the start of a line, with no field of an event
 * pending (after the blank line that ends an event, or after a comment between events). Cut
 * anywhere else, the proxy's event would be glued to the server's half-written one. Lines end in
 * LF, CRLF or CR, as the SSE parsing rules say ({@link io.agentfuse.gateway.sse.SseParser}); a
 * CRLF split across two chunks counts once.
 *
 * <p>Not thread-safe: one per relayed stream, fed on its event loop.
 */
final class SseCutPoints {

    private boolean lineStart = true;
    private boolean commentLine;
    private boolean fieldsPending;
    private boolean lastWasCarriageReturn;

    /**
     * Reads {@code chunk}, the next bytes of the stream, and returns the length of its longest
     * prefix after which the stream may be cut, or -1 when it may be cut nowhere within it (nor at
     * its start, unless it could be before).
     */
    int lastCutIn(Buffer chunk) {
        int last = -1;
        int length = chunk.length();
        for (int i = 0; i < length; i++) {
            byte b = chunk.getByte(i);
            if (lastWasCarriageReturn && b == '\n') {
                lastWasCarriageReturn = false; // the LF of a CRLF: the line ended at its CR
            } else if (b == '\n' || b == '\r') {
                lastWasCarriageReturn = b == '\r';
                if (lineStart) {
                    fieldsPending = false; // a blank line: the event, if any, is dispatched
                } else if (!commentLine) {
                    fieldsPending = true;
                }
                lineStart = true;
            } else {
                lastWasCarriageReturn = false;
                if (lineStart) {
                    commentLine = b == ':';
                    lineStart = false;
                }
            }
            if (lineStart && !fieldsPending) {
                last = i + 1;
            }
        }
        return last;
    }

    /** Whether the stream read so far may be cut where it ends. */
    boolean atCutPoint() {
        return lineStart && !fieldsPending;
    }
}
