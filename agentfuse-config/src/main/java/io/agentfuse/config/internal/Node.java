package io.agentfuse.config.internal;

import java.util.List;
import java.util.Map;

/**
 * A YAML value with where it was written: the tree the binders read, so that every error can
 * name its key path, line and column.
 */
sealed interface Node {

    /** The dotted key path of this value ({@code tools.web_search.timeout}, {@code a.fallbacks[1]}). */
    String path();

    /** Where this value starts in the source. */
    Location location();

    /** How the value reads in an error message: {@code "abc"}, {@code 30}, {@code a map}. */
    String describe();

    /** A mapping; keys are kept in file order. */
    record MapNode(String path, Location location, Map<String, Entry> entries) implements Node {

        @Override
        public String describe() {
            return "a map";
        }
    }

    /** One key of a mapping, with the position of the key itself. */
    record Entry(String key, Location keyLocation, Node value) {
    }

    /** A sequence. */
    record ListNode(String path, Location location, List<Node> items) implements Node {

        @Override
        public String describe() {
            return "a list";
        }
    }

    /**
     * A scalar after {@code ${ENV}} interpolation; {@code raw} is the text as written.
     * A YAML null ({@code key:}, {@code null}) has kind {@link Kind#NULL}. A value that came from
     * the environment is described by what the file says ({@code ${OPENAI_API_KEY}}), never by what
     * it became: a key put under the wrong name must not end up in an error, an answer or a log.
     */
    record ScalarNode(String path, Location location, String text, String raw, Kind kind) implements Node {

        /** What the YAML parser made of the scalar. */
        enum Kind { STRING, NUMBER, BOOLEAN, NULL }

        boolean isNull() {
            return kind == Kind.NULL;
        }

        /** Whether the value came (in part) from the environment through {@code ${NAME}}. */
        boolean interpolated() {
            return !raw.equals(text);
        }

        @Override
        public String describe() {
            if (kind == Kind.NULL) {
                return "null";
            }
            if (interpolated()) {
                return fromEnvironment(raw);
            }
            return kind == Kind.STRING ? '"' + text + '"' : text;
        }

        /** How an error names a value read from the environment ({@code source}: a variable or a {@code ${NAME}}). */
        static String fromEnvironment(String source) {
            return "the value of \"" + source + "\" (from the environment, not shown)";
        }
    }
}
