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

    /** Shorter values are not hidden inside messages: "1" would be replaced in "must be >= 1". */
    private static final int MIN_HIDDEN = 4;

    private final Map<Place, ConfigError> errors = new LinkedHashMap<>();
    private final Map<Place, ConfigError> warnings = new LinkedHashMap<>();

    void add(String path, Location location, String message) {
        errors.putIfAbsent(new Place(path, location.line(), location.column()),
                new ConfigError(path, location.line(), location.column(), message));
    }

    /**
     * An error about {@code node}. If the node's value came from the environment, the message
     * keeps no copy of it (a check may have quoted what it parsed): every occurrence becomes the
     * node's own description, which names the variable instead.
     */
    void add(Node node, String message) {
        if (node instanceof Node.ScalarNode scalar && scalar.interpolated() && scalar.text().length() >= MIN_HIDDEN) {
            message = message.replace(scalar.text(), scalar.describe());
        }
        add(node.path(), node.location(), message);
    }

    /** Something that does not stop the file from being used, but that its writer should know (once per place). */
    void warn(Node node, String message) {
        Location location = node.location();
        warnings.putIfAbsent(new Place(node.path(), location.line(), location.column()),
                new ConfigError(node.path(), location.line(), location.column(), message));
    }

    /** Every warning, in file order. */
    List<ConfigError> warningsInFileOrder() {
        return warnings.values().stream().sorted(FILE_ORDER).toList();
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    /** Every error, in file order (errors without a position first). */
    List<ConfigError> inFileOrder() {
        return errors.values().stream().sorted(FILE_ORDER).toList();
    }
}
