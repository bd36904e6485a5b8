package io.agentfuse.config;

import java.util.List;
import java.util.Objects;

/**
 * A usable configuration and what its writer should still know about it
 * ({@link ConfigLoader#check}): each warning with its key path, line and column, like an error,
 * but nothing that stops the file from being used. Immutable.
 *
 * @param config   the configuration, as {@link ConfigLoader#load} would return it
 * @param warnings in file order; empty when there is nothing to say
 */
public record CheckedConfig(AgentfuseConfig config, List<ConfigError> warnings) {

    public CheckedConfig {
        Objects.requireNonNull(config, "config");
        warnings = List.copyOf(warnings);
    }
}
