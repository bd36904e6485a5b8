package io.agentfuse.config;

import java.util.Objects;

/**
 * One problem found in a configuration file: where it is and what is wrong.
 *
 * <p>{@code path} is the dotted key path ({@code tools.web_search.circuitBreaker.failureThreshold},
 * list items as {@code models.a.fallbacks[1]}); it is empty for problems with the file as a whole.
 * {@code line} and {@code column} are 1-based; both are 0 when the problem has no position
 * (for example, a file that cannot be read). {@code message} names the bad value and what is
 * allowed: {@code "must be >= 1, but was 0"}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * ConfigError error = new ConfigError("server.port", 2, 9, "must be <= 65535, but was 70000");
 * error.format("agentfuse.yaml"); // "agentfuse.yaml:2:9: server.port: must be <= 65535, but was 70000"
 * }</pre>
 */
public record ConfigError(String path, int line, int column, String message) {

    public ConfigError {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column must be >= 0, but were " + line + ":" + column);
        }
    }

    /** Whether the error points at a position in the file. */
    public boolean hasPosition() {
        return line > 0;
    }

    /** The error as one line, compiler style: {@code source:line:column: path: message}. */
    public String format(String source) {
        var text = new StringBuilder(source);
        if (hasPosition()) {
            text.append(':').append(line).append(':').append(column);
        }
        text.append(": ");
        if (!path.isEmpty()) {
            text.append(path).append(": ");
        }
        return text.append(message).toString();
    }
}
