package io.agentfuse.config.internal;

import io.agentfuse.config.internal.Node.Entry;
import io.agentfuse.config.internal.Node.ListNode;
import io.agentfuse.config.internal.Node.MapNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.agentfuse.config.ConfigLoader;
import org.snakeyaml.engine.v2.api.LoadSettings;
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
 *
 * <p>A configuration file is input like any other, and a hostile one is refused at once: at most
 * {@value ConfigLoader#MAX_FILE_BYTES} characters (the parser's own code point limit too), at most
 * {@link #LIMITS}' aliases of maps and lists, at most {@value #MAX_VALUES} values once every alias
 * and merge key is expanded (a few hundred bytes of aliases of aliases stand for billions), and
 * nesting at most {@value #MAX_DEPTH} deep; a merge key takes a map or a list of maps, nothing
 * nested deeper. YAML tags ({@code !!java.lang.Integer}, {@code !custom}) are refused, as the file
 * has no use for them: silently dropping one would change what the writer meant.
 */
final class YamlTreeReader {

    /**
     * The parser's limits: the file's length in code points, and aliases of collections, which this
     * reader counts (500: a file that shares one block of settings among hundreds of tools passes;
     * what an alias may cost is bounded by {@link #MAX_VALUES}). Duplicate keys pass the parser, so
     * that this reader reports them with both lines.
     */
    static final LoadSettings LIMITS = LoadSettings.builder().setCodePointLimit(ConfigLoader.MAX_FILE_BYTES)
            .setMaxAliasesForCollections(500).setAllowRecursiveKeys(false).setAllowDuplicateKeys(true).build();
    /** The values a file may stand for once its aliases and merge keys are expanded. */
    static final int MAX_VALUES = 100_000;
    /** How deep maps and lists may nest. */
    static final int MAX_DEPTH = 64;

    private static final YAMLFactory YAML = YAMLFactory.builder().loadSettings(LIMITS).build();
    private static final String MERGE_KEY = "<<";
    private static final String EXPECTED_ROOT = "a map of sections such as models, tools and breakers";
    private static final String CORE_TAG_PREFIX = "tag:yaml.org,2002:";

    private final EnvInterpolator environment;
    private final Problems problems;
    private final Map<String, Node> anchors = new HashMap<>();
    /** How many values each anchored map or list stands for, so that an alias of it counts them again. */
    private final Map<Node, Long> anchoredValues = new IdentityHashMap<>();
    private long values;
    private int collectionAliases;
    private int depth;

    YamlTreeReader(EnvInterpolator environment, Problems problems) {
        this.environment = environment;
        this.problems = problems;
    }

    /** The root map, or empty when the file is empty, not a map, not YAML or beyond a limit (all reported). */
    Optional<MapNode> read(String yaml) {
        if (yaml.length() > ConfigLoader.MAX_FILE_BYTES) {
            problems.add("", new Location(1, 1), YamlConfigReader.tooLong(yaml.length() + " characters"));
            return Optional.empty();
        }
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
        } catch (Refused refused) {
            problems.add(refused.path, refused.location, refused.getMessage());
            return Optional.empty();
        }
    }

    /** A limit was passed: reading stops there, with this one error. */
    private static final class Refused extends RuntimeException {
        private final String path;
        private final Location location;

        Refused(String path, Location location, String message) {
            super(message, null, false, false);
            this.path = path;
            this.location = location;
        }
    }

    private Node readValue(JsonParser parser, String path) {
        Location location = location(parser);
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            return alias(parser.getString(), path, location);
        }
        String anchor = parser instanceof YAMLParser yaml ? yaml.getObjectId() : null;
        String tag = parser instanceof YAMLParser yaml ? yaml.getRawTag() : null;
        if (tag != null) {
            problems.add(path, location, "YAML tags are not used in this file, but the value is tagged "
                    + (tag.startsWith(CORE_TAG_PREFIX) ? "!!" + tag.substring(CORE_TAG_PREFIX.length()) : tag)
                    + "; remove the tag (quote a value to make it text)");
        }
        long before = values;
        count(path, location, 1);
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
            anchoredValues.put(node, values - before);
        }
        return node;
    }

    /** Counts {@code added} values, refusing the file beyond {@link #MAX_VALUES}. */
    private void count(String path, Location location, long added) {
        values += added;
        if (values > MAX_VALUES) {
            throw new Refused(path, location, "the file stands for more than " + MAX_VALUES + " values once its aliases"
                    + " (*name) and merge keys (<<) are expanded; a configuration needs far fewer (a YAML bomb?)");
        }
    }

    /** Enters a map or a list, refusing nesting deeper than {@link #MAX_DEPTH}. */
    private void enter(String path, Location location) {
        if (++depth > MAX_DEPTH) {
            throw new Refused(path, location, "maps and lists nest more than " + MAX_DEPTH + " deep here");
        }
    }

    private MapNode readMap(JsonParser parser, String path, Location location) {
        enter(path, location);
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
        depth--;
        return new MapNode(path, location, entries);
    }

    /**
     * YAML merge keys: the merged map's keys fill in what the map itself does not set. A merge
     * takes a map or a list of maps and nothing deeper, so that it costs one pass over those maps.
     */
    private void merge(Node source, Map<String, Entry> entries) {
        if (source instanceof MapNode map) {
            map.entries().forEach(entries::putIfAbsent);
        } else if (source instanceof ListNode list && list.items().stream().allMatch(MapNode.class::isInstance)) {
            list.items().forEach(item -> ((MapNode) item).entries().forEach(entries::putIfAbsent));
        } else {
            problems.add(source, "a merge key (<<) takes a map or a list of maps, but was " + source.describe()
                    + (source instanceof ListNode ? " holding something else" : ""));
        }
    }

    private ListNode readList(JsonParser parser, String path, Location location) {
        enter(path, location);
        var items = new ArrayList<Node>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(readValue(parser, path + "[" + items.size() + "]"));
        }
        depth--;
        return new ListNode(path, location, List.copyOf(items));
    }

    /** The anchored value {@code name} stands for, counted again as the values it expands to. */
    private Node alias(String name, String path, Location location) {
        Node target = anchors.get(name);
        if (target == null) {
            problems.add(path, location, "the alias *" + name + " names no anchor defined before it");
            return new ScalarNode(path, location, "null", "null", ScalarNode.Kind.NULL);
        }
        if (!(target instanceof ScalarNode) && ++collectionAliases > LIMITS.getMaxAliasesForCollections()) {
            throw new Refused(path, location, "the file has more than " + LIMITS.getMaxAliasesForCollections()
                    + " aliases (*name) of maps and lists; a configuration needs far fewer (a YAML bomb?)");
        }
        count(path, location, anchoredValues.getOrDefault(target, 1L));
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
