package io.agentfuse.gateway.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gateway's meters by name and tags, registered in its Micrometer registry on first use and
 * found again without registering. Meters are looked up per request, and building and registering
 * one each time cost more than the rest of the bookkeeping; the tag values are bounded (configured
 * models, outcomes), so these caches are too.
 *
 * <p>Thread-safe: two threads that ask for the same meter at once are both handed the one kept.
 */
final class RegisteredMeters {

    private final MeterRegistry registry;
    private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();
    private final Map<List<String>, LoopCount> loopCounts = new ConcurrentHashMap<>();

    RegisteredMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The counter {@code name} with {@code tags} (name, value, name, value, ...). */
    Counter counter(String name, String description, String... tags) {
        return counters.computeIfAbsent(meterKey(name, tags), ignored ->
                Counter.builder(name).description(description).tags(tags).register(registry));
    }

    /**
     * Like {@link #counter}, for the counters every request touches: a {@link LoopCount} under a
     * Micrometer function counter, which scrapes the same as a counter.
     */
    LoopCount loopCount(String name, String description, String... tags) {
        return loopCounts.computeIfAbsent(meterKey(name, tags), ignored -> {
            LoopCount count = new LoopCount();
            FunctionCounter.builder(name, count, LoopCount::sum).description(description).tags(tags).register(registry);
            return count;
        });
    }

    /** A timer {@code name} with {@code tags}; the caller keeps it (one per model and dialect). */
    Timer timer(String name, String description, String... tags) {
        return Timer.builder(name).description(description).tags(tags).register(registry);
    }

    /**
     * Removes the series of a name no longer served (a family model whose breaker was dropped to
     * make room for another): every meter of the registry with a tag among {@code anyOf} (key to
     * value), and the cached ones, so that names callers choose cannot grow the series without end.
     */
    void removeTagged(Map<String, String> anyOf) {
        for (Meter meter : registry.getMeters()) {
            if (meter.getId().getTags().stream().anyMatch(tag -> tag.getValue().equals(anyOf.get(tag.getKey())))) {
                registry.remove(meter);
            }
        }
        counters.keySet().removeIf(key -> tagged(key, anyOf));
        loopCounts.keySet().removeIf(key -> tagged(key, anyOf));
    }

    private static boolean tagged(List<String> key, Map<String, String> anyOf) {
        for (int i = 1; i + 1 < key.size(); i += 2) {
            if (key.get(i + 1).equals(anyOf.get(key.get(i)))) {
                return true;
            }
        }
        return false;
    }

    /** A meter's name and tags, as the key of the caches above. */
    private static List<String> meterKey(String name, String... tags) {
        List<String> key = new ArrayList<>(tags.length + 1);
        key.add(name);
        key.addAll(Arrays.asList(tags));
        return key;
    }
}
