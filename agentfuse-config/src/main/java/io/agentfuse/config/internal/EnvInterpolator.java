package io.agentfuse.config.internal;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${NAME}} and {@code ${NAME:-default}} in a value with the environment's
 * values. {@code ${NAME:-default}} takes the default when the variable is unset or empty;
 * {@code ${NAME}} of an unset variable is an error; {@code $${} writes a literal {@code ${}.
 * The environment is a plain map, so that tests do not depend on the real one.
 */
final class EnvInterpolator {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String DEFAULT_SEPARATOR = ":-";

    private final Map<String, String> environment;

    EnvInterpolator(Map<String, String> environment) {
        this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    }

    /**
     * @return {@code text} with every reference replaced
     * @throws IllegalArgumentException naming the variable, if one is unset without a default
     *                                  or a reference is malformed
     */
    String interpolate(String text) {
        if (!text.contains("${")) {
            return text;
        }
        var result = new StringBuilder(text.length());
        int index = 0;
        while (index < text.length()) {
            if (text.startsWith("$${", index)) {
                result.append("${");
                index += 3;
            } else if (text.startsWith("${", index)) {
                int end = text.indexOf('}', index + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("\"${\" is not closed by \"}\" in \"" + text + "\"");
                }
                result.append(resolve(text.substring(index + 2, end)));
                index = end + 1;
            } else {
                result.append(text.charAt(index++));
            }
        }
        return result.toString();
    }

    private String resolve(String reference) {
        int separator = reference.indexOf(DEFAULT_SEPARATOR);
        String name = separator < 0 ? reference : reference.substring(0, separator);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("\"${" + reference + "}\" does not name an environment variable"
                    + " (letters, digits and _, not starting with a digit)");
        }
        String value = environment.get(name);
        if (separator >= 0) {
            return value == null || value.isEmpty() ? reference.substring(separator + DEFAULT_SEPARATOR.length()) : value;
        }
        if (value == null) {
            throw new IllegalArgumentException("environment variable " + name + " is not set"
                    + " (write ${" + name + ":-default} to give a default)");
        }
        return value;
    }
}
