package io.agentfuse.core.breaker;

import io.agentfuse.core.internal.Checks;

/**
 * A pattern of breaker names, as the registry's templates and limits take them: an exact name, or
 * a prefix ending in {@code *} ({@code tool:search/*}). The one place that says which names a
 * pattern covers and how specific it is. Immutable.
 */
record NamePattern(String pattern) {

    NamePattern {
        Checks.notNull("pattern", pattern);
    }

    /** Whether {@code name} is covered. */
    boolean matches(String name) {
        return isPrefix() ? name.startsWith(pattern.substring(0, pattern.length() - 1)) : name.equals(pattern);
    }

    /** How specific the pattern is: the length of its prefix, and more than any prefix for an exact name. */
    int specificity() {
        return isPrefix() ? pattern.length() - 1 : Integer.MAX_VALUE;
    }

    private boolean isPrefix() {
        return pattern.endsWith("*");
    }
}
