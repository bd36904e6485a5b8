package io.agentfuse.gateway.mcp;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests the proxy has open to each MCP server address (scheme, host and port: what a
 * connection pool is kept for), bounded so that no request ever waits for a pooled connection.
 * Calls ({@code POST}, {@code DELETE}) and {@code GET} streams are counted apart, each kind with
 * its own pool of {@code limit} connections per event loop ({@link McpUpstream}): a stream holds
 * its connection for as long as it is open, and must not take the ones calls need.
 *
 * <p>A request that finds no slot is the gateway's own saturation, as Envoy's upstream overflow
 * is: it is refused at once as {@code overloaded} (429 with {@code Retry-After}), and no breaker
 * counts it, because the server was never asked. Before, such a call waited in the pool's queue
 * until its timeout, and its tool's breaker counted a timeout the tool never had.
 *
 * <p>Thread-safe; one entry per configured address, so its memory is bounded by the configuration.
 */
final class ConnectionSlots {

    /** What a slot is for. */
    enum Kind {
        /** A request answered and done: {@code tools/call}, any other {@code POST}, {@code DELETE}. */
        CALL,
        /** A {@code GET} stream, open until either side ends it. */
        STREAM
    }

    /** A slot taken; {@link #release} gives it back, once however often it is called. */
    interface Slot {
        void release();
    }

    private final int limit;
    private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();

    /** Slots for at most {@code limit} requests of each kind open to one address. */
    ConnectionSlots(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, but was " + limit);
        }
        this.limit = limit;
    }

    /** The bound of each kind per address. */
    int limit() {
        return limit;
    }

    /** A slot of {@code kind} at {@code url}'s address, or empty when all are taken. */
    Optional<Slot> tryTake(URI url, Kind kind) {
        AtomicInteger count = open.computeIfAbsent(kind + " " + address(url), key -> new AtomicInteger());
        if (count.incrementAndGet() > limit) {
            count.decrementAndGet();
            return Optional.empty();
        }
        AtomicBoolean released = new AtomicBoolean();
        return Optional.of(() -> {
            if (released.compareAndSet(false, true)) {
                count.decrementAndGet();
            }
        });
    }

    private static String address(URI url) {
        String scheme = url.getScheme() == null ? "http" : url.getScheme().toLowerCase(Locale.ROOT);
        int port = url.getPort() >= 0 ? url.getPort() : "https".equals(scheme) ? 443 : 80;
        return scheme + "://" + String.valueOf(url.getHost()).toLowerCase(Locale.ROOT) + ":" + port;
    }
}
