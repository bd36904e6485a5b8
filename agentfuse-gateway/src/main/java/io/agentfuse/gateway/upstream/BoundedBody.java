package io.agentfuse.gateway.upstream;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;

/**
 * Reads a provider's answer body up to a limit: a {@code Content-Length} over it fails before a
 * byte is read, and a body that grows past it (chunked without end, say) fails as soon as it
 * does. The caller resets the request on failure, which stops the reading and frees the
 * connection. Must be called on the response's context, before its body starts to arrive.
 */
final class BoundedBody {

    private static final int PRESIZE_LIMIT = 64 * 1024;

    private BoundedBody() {
    }

    static Future<Buffer> read(HttpClientResponse response, long maxBytes, ProviderEndpoint provider) {
        String declared = response.getHeader(HttpHeaders.CONTENT_LENGTH);
        long length = declared == null ? -1 : lengthOf(declared);
        if (length > maxBytes) {
            return Future.failedFuture(tooLarge(provider, maxBytes, "declares a Content-Length of " + declared.trim() + ", more"));
        }
        Promise<Buffer> body = Promise.promise();
        Received received = new Received(length);
        response.handler(chunk -> {
            if (body.future().isComplete()) {
                return;
            }
            if (received.length() + (long) chunk.length() > maxBytes) {
                body.tryFail(tooLarge(provider, maxBytes, "sent more"));
                return;
            }
            received.add(chunk);
        });
        response.exceptionHandler(body::tryFail);
        response.endHandler(v -> body.tryComplete(received.body()));
        return body.future();
    }

    /**
     * The chunks received so far. An answer that comes in one chunk (most do) is that chunk: Vert.x
     * hands each chunk over as a buffer of its own, so it is kept as it is, not copied into another.
     */
    private static final class Received {

        private final long declaredLength;
        private Buffer first;
        private Buffer joined;

        Received(long declaredLength) {
            this.declaredLength = declaredLength;
        }

        long length() {
            return joined != null ? joined.length() : first != null ? first.length() : 0;
        }

        void add(Buffer chunk) {
            if (joined != null) {
                joined.appendBuffer(chunk);
            } else if (first == null) {
                first = chunk;
            } else {
                // Sized once when the length is known (growing from the default size copies the body
                // as it grows), but not beyond what a peer may make the gateway hold before it sends it.
                long expected = Math.max(declaredLength, (long) first.length() + chunk.length());
                joined = Buffer.buffer((int) Math.min(expected, PRESIZE_LIMIT)).appendBuffer(first).appendBuffer(chunk);
                first = null;
            }
        }

        Buffer body() {
            return joined != null ? joined : first != null ? first : Buffer.buffer();
        }
    }

    /** The declared length; -1 when it is not a number (the HTTP codec rejects it; nothing to decide here). */
    private static long lengthOf(String declared) {
        try {
            return Long.parseLong(declared.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static UpstreamBodyTooLargeException tooLarge(ProviderEndpoint provider, long maxBytes, String what) {
        return new UpstreamBodyTooLargeException("the answer of provider " + provider.name() + " " + what
                + " than " + maxBytes + " bytes (server.maxUpstreamBody); reading stopped");
    }
}
