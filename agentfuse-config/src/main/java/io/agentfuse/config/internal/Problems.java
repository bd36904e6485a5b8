package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigError;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The errors found so far while reading one file, at most one per key path and position: a
 * value read more than once (a server's breaker under each of its tools) reports once, and a
 * value that already failed (an unset {@code ${ENV}}) is not reported again for its type.
 * Not thread-safe: one per load.
 */
final class Problems {

    private static final Comparator<ConfigError> FILE_ORDER =
            Comparator.comparingInt(ConfigError::line).thenComparingInt(ConfigError::column);

    private record Place(String path, int line, int column) {
    }

    private final Map<Place, ConfigError> errors = new LinkedHashMap<>();

    void add(String path, Location location, String message) {
        errors.putIfAbsent(new Place(path, location.line(), location.column()),
                new ConfigError(path, location.line(), location.column(), message));
    }

    void add(Node node, String message) {
        add(node.path(), node.location(), message);
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    /** Every error, in file order (errors without a position first). */
    List<ConfigError> inFileOrder() {
        return errors.values().stream().sorted(FILE_ORDER).toList();
    }
}
