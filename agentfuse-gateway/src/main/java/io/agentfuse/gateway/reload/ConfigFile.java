package io.agentfuse.gateway.reload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The file a gateway's configuration came from, so that it can read it again (docs/design.md §7: on
 * {@code POST /admin/reload}, on SIGHUP and when the file changes).
 *
 * @param path         the YAML file
 * @param environment  what {@code ${NAME}} resolves to, as at start
 * @param pollInterval how often the file is checked for a change; {@link Duration#ZERO} never
 */
public record ConfigFile(Path path, Map<String, String> environment, Duration pollInterval) {

    /** How often a file is checked for a change unless told otherwise. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(2);

    public ConfigFile {
        Objects.requireNonNull(path, "path");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(pollInterval, "pollInterval");
        if (pollInterval.isNegative()) {
            throw new IllegalArgumentException("pollInterval must not be negative, but was " + pollInterval);
        }
    }

    /** {@code path} with {@code environment}, checked for changes every {@link #DEFAULT_POLL_INTERVAL}. */
    public static ConfigFile of(Path path, Map<String, String> environment) {
        return new ConfigFile(path, environment, DEFAULT_POLL_INTERVAL);
    }

    /** The same file, checked every {@code interval} ({@link Duration#ZERO}: never). */
    public ConfigFile withPollInterval(Duration interval) {
        return new ConfigFile(path, environment, interval);
    }
}
