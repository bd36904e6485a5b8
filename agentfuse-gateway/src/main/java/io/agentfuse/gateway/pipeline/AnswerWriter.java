package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.internal.CallerWritability;
import io.agentfuse.gateway.internal.OnContext;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * Ends a response with a complete answer's body: at once when it is small, else in slices of
 * {@value #SLICE_BYTES} bytes, each written once the caller takes more ({@link CallerWritability}),
 * with the body's {@code Content-Length}, so the wire is the same.
 *
 * <p>Netty copies what is written from the heap into direct memory, whole: forty callers of 4 MB
 * answers at once needed 160 MB of it, and on a gateway whose direct memory was capped at 32 MB
 * (or smaller than the heap) the writes that found none failed silently: twenty-one of the forty
 * callers got the head of a 200 and never its body. In slices, a caller holds at most Netty's write
 * buffer and one slice of direct memory, however large its answer and however slowly it reads;
 * the answer itself stays in the heap, where it already was, until written.
 *
 * <p>A write that fails (no direct memory for Netty's copy even then) closes the caller's
 * connection, as any failed write to a caller does ({@code server.FailedWriteClose}).
 *
 * <p>Confined to the request's context; a slice's turn runs there.
 */
final class AnswerWriter {

    /** Bodies up to this size are written in one piece, and larger ones in pieces of it. */
    static final int SLICE_BYTES = 64 * 1024;

    private AnswerWriter() {
    }

    /** Ends {@code response} with {@code body}, the caller on {@code connection} served on {@code context}. */
    static void end(HttpServerResponse response, HttpConnection connection, Context context, Buffer body) {
        if (body.length() <= SLICE_BYTES) {
            response.end(body);
            return;
        }
        response.putHeader(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length()));
        writeFrom(response, connection, context, body, 0);
    }

    private static void writeFrom(HttpServerResponse response, HttpConnection connection, Context context, Buffer body,
                                  int from) {
        for (int at = from; !response.closed(); ) {
            int to = Math.min(at + SLICE_BYTES, body.length());
            if (to == body.length()) {
                response.end(body.slice(at, to));
                return;
            }
            response.write(body.slice(at, to));
            at = to;
            if (!CallerWritability.takesMore(connection)) {
                int next = at;
                CallerWritability.whenItTakesMore(connection,
                        () -> OnContext.run(context, () -> writeFrom(response, connection, context, body, next)));
                return;
            }
        }
    }
}
