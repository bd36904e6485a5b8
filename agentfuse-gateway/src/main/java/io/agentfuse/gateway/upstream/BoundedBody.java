package io.agentfuse.gateway.upstream;

import io.vertx.core.buffer.Buffer;

/**
 * A provider's answer body read up to a limit: a {@code Content-Length} over it fails before a
 * byte is read ({@link #of}), and a body that grows past it (chunked without end, say) fails as
 * soon as it does ({@link #add}). The caller closes the connection on failure, which stops the
 * reading. Confined to the call's event loop.
 *
 * <p>An answer that comes in one chunk (most do) is that chunk: the client hands each chunk over as
 * a buffer of its own, so it is kept as it is, not copied into another.
 */
final class BoundedBody {

    private static final int PRESIZE_LIMIT = 64 * 1024;

    private final long maxBytes;
    private final long declaredLength;
    private final ProviderEndpoint provider;
    private Buffer first;
    private Buffer joined;

    private BoundedBody(long maxBytes, long declaredLength, ProviderEndpoint provider) {
        this.maxBytes = maxBytes;
        this.declaredLength = declaredLength;
        this.provider = provider;
    }

    /**
     * The body of an answer whose {@code Content-Length} is {@code declared} ({@code null} when it
     * has none), none of it received yet.
     *
     * @throws UpstreamBodyTooLargeException if {@code declared} is over {@code maxBytes}
     */
    static BoundedBody of(String declared, long maxBytes, ProviderEndpoint provider) {
        long length = declared == null ? -1 : lengthOf(declared);
        if (length > maxBytes) {
            throw tooLarge(provider, maxBytes, "declares a Content-Length of " + declared.trim() + ", more");
        }
        return new BoundedBody(maxBytes, length, provider);
    }

    /**
     * Adds the next chunk.
     *
     * @throws UpstreamBodyTooLargeException if the body grows past the limit with it
     */
    void add(Buffer chunk) {
        if (length() + (long) chunk.length() > maxBytes) {
            throw tooLarge(provider, maxBytes, "sent more");
        }
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

    /** The chunks received so far, as one buffer. */
    Buffer body() {
        return joined != null ? joined : first != null ? first : Buffer.buffer();
    }

    private long length() {
        return joined != null ? joined.length() : first != null ? first.length() : 0;
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
