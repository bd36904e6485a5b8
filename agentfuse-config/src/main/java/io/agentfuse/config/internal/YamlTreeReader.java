package io.agentfuse.config.internal;

import io.agentfuse.config.internal.Node.Entry;
import io.agentfuse.config.internal.Node.ListNode;
import io.agentfuse.config.internal.Node.MapNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.Mark;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Builds a {@link Node} tree from YAML text with the streaming parser, recording the line and
 * column of every key and value, interpolating {@code ${ENV}} in string values, and resolving
 * anchors, aliases and {@code <<} merge keys. Duplicate keys, syntax errors and an empty file
 * are reported to {@link Problems}. One instance reads one file.
 */
final class YamlTreeReader {

    private static final YAMLFactory YAML = YAMLFactory.builder().build();
    private static final String MERGE_KEY = "<<";
    private static final String EXPECTED_ROOT = "a map of sections such as models, tools and breakers";

    private final EnvInterpolator environment;
    private final Problems problems;
    private final Map<String, Node> anchors = new HashMap<>();

    YamlTreeReader(EnvInterpolator environment, Problems problems) {
        this.environment = environment;
        this.problems = problems;
    }

    /** The root map, or empty when the file is empty, not a map, or not YAML (all reported). */
    Optional<MapNode> read(String yaml) {
        try (JsonParser parser = YAML.createParser(ObjectReadContext.empty(), yaml)) {
            if (parser.nextToken() == null) {
                problems.add("", new Location(1, 1), "the file is empty; expected " + EXPECTED_ROOT);
                return Optional.empty();
            }
            Node root = readValue(parser, "");
            if (parser.nextToken() != null) {
                problems.add("", location(parser), "only one YAML document is allowed, but another one starts here");
            }
            if (root instanceof MapNode map) {
                return Optional.of(map);
            }
            if (root instanceof ScalarNode scalar && scalar.isNull()) {
                problems.add("", new Location(1, 1), "the file is empty; expected " + EXPECTED_ROOT);
            } else {
                problems.add(root, "expected " + EXPECTED_ROOT + ", but was " + root.describe());
            }
            return Optional.empty();
        } catch (JacksonException e) {
            problems.add("", syntaxErrorLocation(e), syntaxErrorMessage(e));
            return Optional.empty();
        }
    }

    private Node readValue(JsonParser parser, String path) {
        Location location = location(parser);
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            return alias(parser.getString(), path, location);
        }
        String anchor = parser instanceof YAMLParser yaml ? yaml.getObjectId() : null;
        Node node = switch (parser.currentToken()) {
            case START_OBJECT -> readMap(parser, path, location);
            case START_ARRAY -> readList(parser, path, location);
            case VALUE_STRING, VALUE_EMBEDDED_OBJECT -> string(parser.getString(), path, location);
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT ->
                    new ScalarNode(path, location, parser.getString(), parser.getString(), ScalarNode.Kind.NUMBER);
            case VALUE_TRUE, VALUE_FALSE ->
                    new ScalarNode(path, location, parser.getString(), parser.getString(), ScalarNode.Kind.BOOLEAN);
            default -> new ScalarNode(path, location, "null", "null", ScalarNode.Kind.NULL);
        };
        if (anchor != null) {
            anchors.put(anchor, node);
        }
        return node;
    }

    private MapNode readMap(JsonParser parser, String path, Location location) {
        var entries = new LinkedHashMap<String, Entry>();
        var merged = new ArrayList<Node>();
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String key = parser.currentName();
            Location keyLocation = location(parser);
            parser.nextToken();
            Node value = readValue(parser, Paths.child(path, key));
            if (MERGE_KEY.equals(key)) {
                merged.add(value);
            } else if (entries.containsKey(key)) {
                problems.add(Paths.child(path, key), keyLocation, "duplicate key; it is first given at line "
                        + entries.get(key).keyLocation().line());
            } else {
                entries.put(key, new Entry(key, keyLocation, value));
            }
        }
        merged.forEach(source -> merge(source, entries));
        return new MapNode(path, location, entries);
    }

    /** YAML merge keys: the merged map's keys fill in what the map itself does not set. */
    private void merge(Node source, Map<String, Entry> entries) {
        if (source instanceof MapNode map) {
            map.entries().forEach(entries::putIfAbsent);
        } else if (source instanceof ListNode list) {
            list.items().forEach(item -> merge(item, entries));
        } else {
            problems.add(source, "a merge key (<<) takes a map or a list of maps, but was " + source.describe());
        }
    }

    private ListNode readList(JsonParser parser, String path, Location location) {
        var items = new ArrayList<Node>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(readValue(parser, path + "[" + items.size() + "]"));
        }
        return new ListNode(path, location, List.copyOf(items));
    }

    private Node alias(String name, String path, Location location) {
        Node target = anchors.get(name);
        if (target == null) {
            problems.add(path, location, "the alias *" + name + " names no anchor defined before it");
            return new ScalarNode(path, location, "null", "null", ScalarNode.Kind.NULL);
        }
        return target;
    }

    private ScalarNode string(String raw, String path, Location location) {
        try {
            return new ScalarNode(path, location, environment.interpolate(raw), raw, ScalarNode.Kind.STRING);
        } catch (IllegalArgumentException e) {
            problems.add(path, location, e.getMessage());
            return new ScalarNode(path, location, raw, raw, ScalarNode.Kind.STRING);
        }
    }

    private static Location location(JsonParser parser) {
        TokenStreamLocation location = parser.currentTokenLocation();
        return new Location(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
    }

    private static Location syntaxErrorLocation(JacksonException e) {
        if (e.getCause() instanceof MarkedYamlEngineException yaml && yaml.getProblemMark().isPresent()) {
            Mark mark = yaml.getProblemMark().get();
            return new Location(mark.getLine() + 1, mark.getColumn() + 1);
        }
        TokenStreamLocation location = e.getLocation();
        return location == null ? new Location(1, 1)
                : new Location(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
    }

    private static String syntaxErrorMessage(JacksonException e) {
        if (e.getCause() instanceof MarkedYamlEngineException yaml) {
            String context = yaml.getContext();
            return "YAML syntax error: " + (context == null ? "" : context + ": ") + yaml.getProblem();
        }
        return "YAML syntax error: " + e.getOriginalMessage().lines().findFirst().orElse("");
    }
}
