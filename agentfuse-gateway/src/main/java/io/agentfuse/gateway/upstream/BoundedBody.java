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
        // Sized once when the length is known (growing from the default size copies the body as it
        // grows), but not beyond what a peer may make the gateway hold before it has sent a byte.
        Buffer received = length > 0 ? Buffer.buffer((int) Math.min(length, PRESIZE_LIMIT)) : Buffer.buffer();
        response.handler(chunk -> {
            if (body.future().isComplete()) {
                return;
            }
            if (received.length() + (long) chunk.length() > maxBytes) {
                body.tryFail(tooLarge(provider, maxBytes, "sent more"));
                return;
            }
            received.appendBuffer(chunk);
        });
        response.exceptionHandler(body::tryFail);
        response.endHandler(v -> body.tryComplete(received));
        return body.future();
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
