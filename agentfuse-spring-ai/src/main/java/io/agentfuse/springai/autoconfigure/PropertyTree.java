package io.agentfuse.springai.autoconfigure;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The {@code agentfuse.*} properties of a Spring environment as the YAML text of an agentfuse
 * configuration, so that properties and files share one parser, one set of defaults and one
 * validation. Property names keep the YAML's keys exactly ({@code agentfuse.retry.maxAttempts=4},
 * {@code agentfuse.models.gpt-4o.fallbacks[0]=gpt-4o-mini}); a key with dots goes in brackets
 * ({@code agentfuse.models[gpt-4.1].provider=openai}). Values are resolved by the environment, so
 * the highest-precedence source wins. {@code agentfuse.config-file} is not part of the tree.
 *
 * <p>Stateless.
 */
final class PropertyTree {

    static final String PREFIX = "agentfuse.";
    private static final Set<String> OWN_KEYS = Set.of("config-file", "configFile", "enabled");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./%+@-][A-Za-z0-9_./%+@:-]*");
    private static final Pattern INDEX = Pattern.compile("\\d+");

    private PropertyTree() {
    }

    /** The YAML text of the {@code agentfuse.*} properties; empty when there are none. */
    static String yaml(ConfigurableEnvironment environment) {
        Map<String, Object> tree = new TreeMap<>();
        for (String name : names(environment)) {
            List<String> path = path(name.substring(PREFIX.length()));
            if (path.isEmpty() || OWN_KEYS.contains(path.get(0))) {
                continue;
            }
            put(tree, path, environment.getProperty(name));
        }
        StringBuilder yaml = new StringBuilder();
        write(tree, 0, yaml);
        return yaml.toString();
    }

    private static Set<String> names(ConfigurableEnvironment environment) {
        Set<String> names = new TreeSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> enumerable) {
                for (String name : enumerable.getPropertyNames()) {
                    if (name.startsWith(PREFIX)) {
                        names.add(name);
                    }
                }
            }
        }
        return names;
    }

    /** {@code models[gpt-4.1].fallbacks[0]} → {@code [models, gpt-4.1, fallbacks, [0]]}; list indexes keep their brackets. */
    static List<String> path(String name) {
        List<String> path = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.') {
                flush(part, path);
            } else if (c == '[') {
                flush(part, path);
                int close = name.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed [ in the property " + PREFIX + name);
                }
                String inside = name.substring(i + 1, close);
                path.add(INDEX.matcher(inside).matches() ? "[" + inside + "]" : inside);
                i = close;
            } else {
                part.append(c);
            }
        }
        flush(part, path);
        return path;
    }

    private static void flush(StringBuilder part, List<String> path) {
        if (!part.isEmpty()) {
            path.add(part.toString());
            part.setLength(0);
        }
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> tree, List<String> path, String value) {
        Map<String, Object> node = tree;
        for (int i = 0; i < path.size() - 1; i++) {
            Object child = node.computeIfAbsent(path.get(i), key -> new TreeMap<String, Object>(PropertyTree::compareKeys));
            if (!(child instanceof Map)) {
                return; // both a value and a table: the value is kept, the validator reports the rest
            }
            node = (Map<String, Object>) child;
        }
        node.putIfAbsent(path.get(path.size() - 1), value);
    }

    /** List indexes in numeric order, so that {@code [10]} comes after {@code [9]}. */
    private static int compareKeys(String a, String b) {
        if (isIndex(a) && isIndex(b)) {
            return Integer.compare(index(a), index(b));
        }
        return a.compareTo(b);
    }

    private static boolean isIndex(String key) {
        return key.length() > 2 && key.charAt(0) == '[' && key.endsWith("]");
    }

    private static int index(String key) {
        return Integer.parseInt(key.substring(1, key.length() - 1));
    }

    @SuppressWarnings("unchecked")
    private static void write(Map<String, Object> node, int indent, StringBuilder yaml) {
        boolean list = !node.isEmpty() && node.keySet().stream().allMatch(PropertyTree::isIndex);
        for (Map.Entry<String, Object> entry : node.entrySet()) {
            yaml.append("  ".repeat(indent)).append(list ? "-" : scalar(entry.getKey()) + ":");
            if (entry.getValue() instanceof Map<?, ?> child) {
                yaml.append('\n');
                write((Map<String, Object>) child, indent + 1, yaml);
            } else {
                yaml.append(' ').append(scalar((String) entry.getValue())).append('\n');
            }
        }
    }

    /** A plain YAML scalar when that reads back as the same text (or as the number, boolean, null it spells), else a quoted one. */
    static String scalar(String text) {
        if (text == null) {
            return "null";
        }
        if (PLAIN.matcher(text).matches()) {
            return text;
        }
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                default -> quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }
}
