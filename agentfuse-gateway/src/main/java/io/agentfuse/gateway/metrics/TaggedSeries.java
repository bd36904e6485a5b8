package io.agentfuse.gateway.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.Map;

/**
 * Removes the series of a name that is no longer served (a model of a built-in family whose
 * breaker was dropped to make room for another): every meter carrying one of the given tags, and
 * the cached meters keyed by name and tags, so that names a caller chooses cannot grow the series
 * without end. Stateless.
 */
final class TaggedSeries {

    private TaggedSeries() {
    }

    /**
     * Removes from {@code registry} every meter with a tag among {@code anyOf} (key to value), and
     * from each of {@code caches} (keyed by meter name, then tag keys and values in turn) the
     * entries of such meters.
     */
    static void remove(MeterRegistry registry, Map<String, String> anyOf, List<? extends Map<List<String>, ?>> caches) {
        for (Meter meter : registry.getMeters()) {
            if (meter.getId().getTags().stream().anyMatch(tag -> tag.getValue().equals(anyOf.get(tag.getKey())))) {
                registry.remove(meter);
            }
        }
        for (Map<List<String>, ?> cache : caches) {
            cache.keySet().removeIf(key -> tagged(key, anyOf));
        }
    }

    private static boolean tagged(List<String> key, Map<String, String> anyOf) {
        for (int i = 1; i + 1 < key.size(); i += 2) {
            if (key.get(i + 1).equals(anyOf.get(key.get(i)))) {
                return true;
            }
        }
        return false;
    }
}
