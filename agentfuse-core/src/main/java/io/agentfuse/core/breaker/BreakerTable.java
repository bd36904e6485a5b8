package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The named breakers of a {@link CircuitBreakerRegistry}: when each was last used, which
 * {@linkplain CircuitBreakerRegistry.Builder#limit limit} it counts against, and the idle
 * eviction that makes room in a full one. The registry decides what a breaker is made with and
 * who is told; this class only keeps them. Thread-safe: lookups take no lock; making a breaker
 * under a limit, and dropping one, lock that limit only.
 */
final class BreakerTable {

    private final Clock clock;
    private final long idleNanos;
    private final List<Limit> limits;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final Consumer<CircuitBreaker> dropped;

    /**
     * @param limits  the limits by pattern, in the order given
     * @param dropped told of every breaker that left the table (removed or evicted)
     */
    BreakerTable(Clock clock, long idleNanos, Map<NamePattern, Integer> limits, Consumer<CircuitBreaker> dropped) {
        this.clock = clock;
        this.idleNanos = idleNanos;
        this.limits = limits.entrySet().stream().map(limit -> new Limit(limit.getKey(), limit.getValue())).toList();
        this.dropped = dropped;
    }

    /** The breaker {@code name} marked as used, or null if there is none: the lookup of every call, which allocates nothing. */
    CircuitBreaker touch(String name) {
        Entry entry = entries.get(name);
        if (entry == null) {
            return null;
        }
        entry.lastUsedNanos = clock.nanoTime();
        return entry.breaker;
    }

    /** The breaker {@code name}, made by {@code create} if it is new and its limit has room (else null), marked as used. */
    CircuitBreaker use(String name, Function<String, CircuitBreaker> create) {
        Entry entry = entries.get(name);
        if (entry == null) {
            Limit limit = limitOf(name);
            entry = limit == null ? entries.computeIfAbsent(name, key -> new Entry(create.apply(key), null))
                    : admit(name, create, limit);
            if (entry == null) {
                return null;
            }
        }
        entry.lastUsedNanos = clock.nanoTime();
        return entry.breaker;
    }

    /** The limit that refused {@code name}: the first whose pattern covers it. */
    BreakerLimitException refusal(String name) {
        Limit limit = limitOf(name);
        return new BreakerLimitException(name, limit.pattern.pattern(), limit.max);
    }

    /**
     * Installs {@code created} as {@code name} unless {@code keep} says the existing breaker stays;
     * marks it as used. A breaker installed so is outside every limit, unless it replaces one that
     * was made on demand: it takes that one's place.
     */
    CircuitBreaker install(String name, Predicate<CircuitBreaker> keep,
                           Function<String, CircuitBreaker> create) {
        Entry entry = entries.compute(name, (key, existing) -> existing != null && keep.test(existing.breaker)
                ? existing : new Entry(create.apply(key), existing == null ? null : existing.limit));
        entry.lastUsedNanos = clock.nanoTime();
        return entry.breaker;
    }

    /** The breaker {@code name}, or null; not a use. */
    CircuitBreaker find(String name) {
        Entry entry = entries.get(name);
        return entry == null ? null : entry.breaker;
    }

    /** Every breaker, in no order. */
    List<CircuitBreaker> all() {
        List<CircuitBreaker> all = new ArrayList<>(entries.size());
        entries.values().forEach(entry -> all.add(entry.breaker));
        return all;
    }

    /** Removes {@code name}; whether it was there. */
    boolean remove(String name) {
        Entry removed = entries.remove(name);
        if (removed != null) {
            left(removed);
        }
        return removed != null;
    }

    /** Drops the breakers that are CLOSED and unused for the idle time, of {@code limit} only when it is not null. */
    int evictIdle(Limit limit) {
        long now = clock.nanoTime();
        int evicted = 0;
        for (Map.Entry<String, Entry> candidate : entries.entrySet()) {
            Entry entry = candidate.getValue();
            if ((limit == null || entry.limit == limit) && entry.breaker.state() == CircuitState.CLOSED
                    && now - entry.lastUsedNanos >= idleNanos && entries.remove(candidate.getKey(), entry)) {
                left(entry);
                evicted++;
            }
        }
        return evicted;
    }

    /** Makes {@code name} under {@code limit}, dropping idle ones first when it is full; null if it stays full. */
    private Entry admit(String name, Function<String, CircuitBreaker> create, Limit limit) {
        synchronized (limit) {
            if (limit.count >= limit.max) {
                evictIdle(limit);
            }
            Entry existing = entries.get(name);
            if (existing != null || limit.count >= limit.max) {
                return existing;
            }
            boolean[] made = {false};
            Entry entry = entries.computeIfAbsent(name, key -> {
                made[0] = true;
                return new Entry(create.apply(key), limit);
            });
            if (made[0]) {
                limit.count++;
            }
            return entry;
        }
    }

    private Limit limitOf(String name) {
        for (Limit limit : limits) {
            if (limit.pattern.matches(name)) {
                return limit;
            }
        }
        return null;
    }

    /** After {@code entry} left the map: its place in its limit is free, and the registry is told. */
    private void left(Entry entry) {
        if (entry.limit != null) {
            synchronized (entry.limit) {
                entry.limit.count--;
            }
        }
        dropped.accept(entry.breaker);
    }

    private static final class Entry {
        final CircuitBreaker breaker;
        /** The limit this breaker counts against, or null (no limit covers it, or it was installed). */
        final Limit limit;
        volatile long lastUsedNanos;

        Entry(CircuitBreaker breaker, Limit limit) {
            this.breaker = breaker;
            this.limit = limit;
        }
    }

    /** One limit; its count is guarded by the object itself. */
    static final class Limit {
        final NamePattern pattern;
        final int max;
        int count;

        Limit(NamePattern pattern, int max) {
            this.pattern = pattern;
            this.max = max;
        }
    }
}
