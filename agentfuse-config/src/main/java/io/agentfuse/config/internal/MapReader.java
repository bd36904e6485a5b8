package io.agentfuse.config.internal;

import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.internal.Node.Entry;
import io.agentfuse.config.internal.Node.MapNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import io.agentfuse.core.internal.Checks;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads one map of the configuration with typed getters that fall back to a default, check
 * the range, and report every problem with its key path and position.
 *
 * <p>Merging ("a model's {@code retry} over the top-level one", "a tool over its server") is
 * done by passing the resolved lower settings as the defaults, so a reader sees one map only.
 * Each getter remembers its key, so that {@link #finish()} can report every other key as
 * unknown, with a suggestion; binders read every key they know before calling it.
 */
final class MapReader {

    /** How a value that fails to parse is described: "must be " + expected + ", but was ...". */
    private static final String DURATION = "a duration like 250ms, 30s, 5m or 1h";
    private static final String FRACTION = "a percentage like 50% or a fraction like 0.5";

    private final MapNode map;
    private final Location location;
    private final Problems problems;
    private final Set<String> known = new LinkedHashSet<>();

    private MapReader(MapNode map, Location location, Problems problems) {
        this.map = map;
        this.location = location;
        this.problems = problems;
    }

    /** A reader of {@code map}; {@code location} is where "missing key" errors point (its key). */
    static MapReader of(MapNode map, Location location, Problems problems) {
        return new MapReader(map, location, problems);
    }

    /** A reader of a map that is not written: every getter returns its default. */
    static MapReader empty(String path, Location location, Problems problems) {
        return new MapReader(new MapNode(path, location, Map.of()), location, problems);
    }

    Problems problems() {
        return problems;
    }

    String path() {
        return map.path();
    }

    Location location() {
        return location;
    }

    String pathOf(String key) {
        return Paths.child(map.path(), key);
    }

    /** The value written for {@code key}, if any. */
    Optional<Node> find(String key) {
        known.add(key);
        return Optional.ofNullable(map.entries().get(key)).map(Entry::value);
    }

    /** Where an error about {@code key} points: its value if written, else this section. */
    Location locationOf(String key) {
        return find(key).map(Node::location).orElse(location);
    }

    void error(String key, String message) {
        Optional<Node> node = find(key);
        problems.add(node.map(Node::path).orElse(pathOf(key)), node.map(Node::location).orElse(location), message);
    }

    int integer(String key, int fallback, int min, int max) {
        return integer(key, fallback, min, max, "an integer");
    }

    /** An integer in [min, max]; {@code expected} says what else the key accepts, for the error. */
    int integer(String key, int fallback, int min, int max, String expected) {
        return (int) longInteger(key, fallback, min, max, expected);
    }

    long longInteger(String key, long fallback, long min, long max) {
        return longInteger(key, fallback, min, max, "an integer");
    }

    private long longInteger(String key, long fallback, long min, long max, String expected) {
        return read(key, fallback, expected, ScalarFormats::integer,
                value -> ValueRules.inRange(min, max, value));
    }

    double decimal(String key, double fallback, double min) {
        return read(key, fallback, "a number", ScalarFormats::decimal,
                value -> ValueRules.atLeast(min, value));
    }

    boolean bool(String key, boolean fallback) {
        return read(key, fallback, "true or false", ScalarFormats::bool, value -> null);
    }

    String string(String key, String fallback) {
        return read(key, fallback, "a string", Optional::of, value -> null);
    }

    /** A string that must be written; empty (and reported) when it is not. */
    Optional<String> requiredString(String key) {
        if (find(key).filter(node -> !isNull(node)).isEmpty()) {
            error(key, "is required" + (find(key).isPresent() ? ", but was null" : ""));
            return Optional.empty();
        }
        String value = string(key, "");
        if (value.isBlank()) {
            error(key, "must not be empty");
            return Optional.empty();
        }
        return Optional.of(value);
    }

    /**
     * A strictly positive duration, at most 100 years; a bare number is in the unit
     * {@link DurationFormat#bareNumberUnit} gives.
     */
    Duration duration(String key, Duration fallback) {
        return read(key, fallback, DURATION, text -> DurationFormat.parse(text, DurationFormat.bareNumberUnit(key)),
                value -> ValueRules.positiveDuration(value, describe(key)));
    }

    /** A duration that may be zero, at most 100 years. */
    Duration nonNegativeDuration(String key, Duration fallback) {
        return read(key, fallback, DURATION, text -> DurationFormat.parse(text, DurationFormat.bareNumberUnit(key)),
                value -> ValueRules.notTooLong(value, describe(key)));
    }

    /** A positive duration, or empty when written as {@code null}. */
    Optional<Duration> optionalDuration(String key, Optional<Duration> fallback) {
        if (find(key).filter(MapReader::isNull).isPresent()) {
            return Optional.empty();
        }
        return fallback.isPresent() || find(key).isPresent()
                ? Optional.of(duration(key, fallback.orElse(Duration.ZERO))) : Optional.empty();
    }

    /** A share in (0, 1], written {@code 50%} or {@code 0.5}. */
    double fraction(String key, double fallback) {
        return read(key, fallback, FRACTION, ScalarFormats::fraction,
                value -> ValueRules.share(value, describe(key)));
    }

    /** The threshold of a rate trigger, in [0, 1) ({@link ValueRules#rateThreshold}). */
    double rateThreshold(String key, double fallback) {
        return read(key, fallback, FRACTION, ScalarFormats::fraction,
                value -> ValueRules.rateThreshold(value, describe(key)));
    }

    /** A size in bytes, {@code > 0}. */
    long size(String key, long fallback) {
        return read(key, fallback, "a size like 512KB, 10MB or 1GB",
                ScalarFormats::size,
                value -> ValueRules.positiveSize(value, describe(key)));
    }

    /** One constant of {@code type}, written in lower case. */
    <E extends Enum<E>> E choice(String key, E fallback) {
        Map<String, E> byName = ScalarFormats.namesOf(fallback.getDeclaringClass());
        return read(key, fallback, "one of " + String.join(", ", byName.keySet()),
                text -> Optional.ofNullable(byName.get(text.strip())),
                value -> null, text -> ClosestMatch.suggestion(text, byName.keySet()));
    }

    /** One constant of {@code type}, written in lower case, that must be given; empty (and reported) if not. */
    <E extends Enum<E>> Optional<E> requiredChoice(String key, Class<E> type) {
        Map<String, E> byName = ScalarFormats.namesOf(type);
        String expected = "one of " + String.join(", ", byName.keySet());
        if (find(key).filter(node -> !isNull(node)).isEmpty()) {
            error(key, "is required: " + expected);
            return Optional.empty();
        }
        return read(key, Optional.empty(), expected, text -> Optional.ofNullable(byName.get(text.strip())).map(Optional::of),
                value -> null, text -> ClosestMatch.suggestion(text, byName.keySet()));
    }

    /** An absolute URL whose scheme is one of {@code schemes}. */
    Optional<URI> url(String key, Optional<URI> fallback, List<String> schemes) {
        String expected = "an absolute " + String.join(" or ", schemes) + " URL";
        return read(key, fallback, expected, text -> ScalarFormats.url(text, schemes).map(Optional::of), value -> null);
    }

    /** The map under {@code key}; a reader of nothing when it is not written (or is not a map, which is reported). */
    MapReader section(String key) {
        known.add(key);
        Entry entry = map.entries().get(key);
        if (entry == null) {
            return empty(pathOf(key), location, problems);
        }
        if (entry.value() instanceof MapNode section) {
            return of(section, entry.keyLocation(), problems);
        }
        if (!isNull(entry.value())) {
            problems.add(entry.value(), Checks.mustBe("a map", entry.value().describe()));
        }
        return empty(pathOf(key), entry.keyLocation(), problems);
    }

    /**
     * The entries of the map of names under {@code key} ({@code models}, {@code tools}, ...), each
     * as a reader of its own; an entry written as {@code null} reads as all defaults.
     */
    Map<String, MapReader> namedSections(String key) {
        var sections = new LinkedHashMap<String, MapReader>();
        Optional<Node> node = find(key);
        if (node.isEmpty() || isNull(node.get())) {
            return sections;
        }
        if (!(node.get() instanceof MapNode names)) {
            problems.add(node.get(), Checks.mustBe("a map of names to settings", node.get().describe()));
            return sections;
        }
        names.entries().forEach((name, entry) -> {
            String entryPath = Paths.child(names.path(), name);
            if (entry.value() instanceof MapNode settings) {
                sections.put(name, of(settings, entry.keyLocation(), problems));
            } else if (isNull(entry.value())) {
                sections.put(name, empty(entryPath, entry.keyLocation(), problems));
            } else {
                problems.add(entry.value(), Checks.mustBe("a map of settings", entry.value().describe()));
            }
        });
        return sections;
    }

    /** Reports every key that no getter asked for. */
    void finish() {
        map.entries().forEach((key, entry) -> {
            if (!known.contains(key)) {
                String hint = ClosestMatch.among(key, known).map(match -> "; did you mean \"" + match + "\"?")
                        .orElse("; expected one of: " + String.join(", ", known));
                problems.add(pathOf(key), entry.keyLocation(), "unknown key" + hint);
            }
        });
    }

    static boolean isNull(Node node) {
        return node instanceof ScalarNode scalar && scalar.isNull();
    }

    /** {@code off}, {@code false} or {@code null}: a trigger that is turned off. */
    static boolean isOff(Node node) {
        return node instanceof ScalarNode scalar
                && (scalar.isNull() || scalar.text().equals("off") || scalar.text().equals("false"));
    }

    private <T> T read(String key, T fallback, String expected, Function<String, Optional<T>> parse,
                       Function<T, String> check) {
        return read(key, fallback, expected, parse, check, text -> "");
    }

    private <T> T read(String key, T fallback, String expected, Function<String, Optional<T>> parse,
                       Function<T, String> check, Function<String, String> hint) {
        Optional<Node> found = find(key);
        if (found.isEmpty()) {
            return fallback;
        }
        Node node = found.get();
        Optional<T> value = node instanceof ScalarNode scalar && !scalar.isNull()
                ? parse.apply(scalar.text()) : Optional.empty();
        if (value.isEmpty()) {
            String text = node instanceof ScalarNode scalar ? scalar.text() : "";
            problems.add(node, Checks.mustBe(expected, node.describe()) + hint.apply(text));
            return fallback;
        }
        String problem = check.apply(value.get());
        if (problem != null) {
            problems.add(node, problem);
            return fallback;
        }
        return value.get();
    }

    private String describe(String key) {
        return find(key).map(Node::describe).orElse("nothing");
    }
}
