package io.agentfuse.redis;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * When a warning about Redis is worth a log line: the first time a kind of trouble is seen, and
 * again only once it was not seen for {@code quiet} (it had recovered, and now it is back). A Redis
 * that keeps doing the same thing — answering garbage on every reconnect, refusing every call on
 * one key — is warned of once, not on every attempt; a new kind of trouble is warned of at once.
 * The kinds seen last are remembered, at most {@value #MAX_KINDS}, so that two troubles in turn
 * do not take each other's place.
 *
 * <p>Thread-safe; the clock is injected ({@code nanoTime}).
 *
 * <pre>{@code
 * WarningLimit limit = new WarningLimit(Duration.ofMinutes(1), System::nanoTime);
 * if (limit.due(why)) {
 *     LOG.warn("closed the connection to Redis: it sent {}", why);
 * }
 * }</pre>
 */
final class WarningLimit {

    /** The kinds remembered at most; the one seen least recently is forgotten first. */
    static final int MAX_KINDS = 64;
    /** How long a kind must not be seen to be warned of again: the one rule of the store and the ledger. */
    static final Duration QUIET = Duration.ofMinutes(1);

    private final long quietNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Long> lastSeen = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > MAX_KINDS;
        }
    };

    /** A limit of {@link #QUIET} on the system clock. */
    WarningLimit() {
        this(QUIET, System::nanoTime);
    }

    WarningLimit(Duration quiet, LongSupplier nanoTime) {
        this.quietNanos = quiet.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Notes that {@code kind} happened now; whether it is to be warned of. */
    synchronized boolean due(String kind) {
        long now = nanoTime.getAsLong();
        Long before = lastSeen.put(kind, now);
        return before == null || now - before >= quietNanos;
    }
}
