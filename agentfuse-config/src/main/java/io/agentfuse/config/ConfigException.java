package io.agentfuse.config;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A configuration that cannot be used, with <em>every</em> problem found in it.
 *
 * <p>Loading never stops at the first mistake: the loader reads the whole file and reports all
 * errors at once, in file order. The message lists them one per line, each as
 * {@code source:line:column: key.path: what is wrong}, so that an operator fixes a file in one go.
 *
 * <pre>{@code
 * try {
 *     ConfigLoader.load(Path.of("agentfuse.yaml"));
 * } catch (ConfigException e) {
 *     System.err.println(e.getMessage());
 *     // agentfuse.yaml:12:5: tools.web_search.circuitBreaker.failureThreshold: must be >= 1, but was 0
 * }
 * }</pre>
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String source;
    private final List<ConfigError> errors;

    /**
     * @param source the name of the file (or other source) the errors are in, as shown to the user
     * @param errors at least one error
     */
    public ConfigException(String source, List<ConfigError> errors) {
        super(format(source, errors), null, false, false);
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one error");
        }
        this.source = source;
        this.errors = List.copyOf(errors);
    }

    /** The name of the file (or other source) the errors are in. */
    public String source() {
        return source;
    }

    /** Every error found, in file order; never empty. */
    public List<ConfigError> errors() {
        return errors;
    }

    private static String format(String source, List<ConfigError> errors) {
        Objects.requireNonNull(source, "source");
        return errors.stream().map(error -> error.format(source)).collect(Collectors.joining("\n"));
    }
}
