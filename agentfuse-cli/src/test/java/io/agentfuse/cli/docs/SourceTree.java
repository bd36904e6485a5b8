package io.agentfuse.cli.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The repository's sources as a reader of its documents sees them: every type declared in a
 * module's {@code src/main/java} or {@code src/test/java}, top-level or nested, by its qualified
 * name, and the text of the file that declares it. Read from the files, not the class path, so that every module counts
 * whatever this module depends on.
 */
final class SourceTree {

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    private static final Pattern NESTED = Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z]\\w*)");

    /** A declared type: its qualified name (nested types joined by dots) and its file's text. */
    record Type(String qualifiedName, Path file, String source) {

        String simpleName() {
            return qualifiedName.substring(qualifiedName.lastIndexOf('.') + 1);
        }
    }

    private final Path root;
    private final List<Type> types = new ArrayList<>();
    private final Map<String, List<Type>> bySimpleName = new HashMap<>();

    private SourceTree(Path root) {
        this.root = root;
    }

    /** The repository that holds the working directory: the nearest parent with an {@code ARCHITECTURE.md}. */
    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("ARCHITECTURE.md"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no ARCHITECTURE.md above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    /** Every main and test source of the repository at {@code root} (the documents name tests too). */
    static SourceTree of(Path root) {
        SourceTree tree = new SourceTree(root);
        for (Path file : sources(root, "/src/main/java/")) {
            tree.add(file);
        }
        for (Path file : sources(root, "/src/test/java/")) {
            tree.add(file);
        }
        if (tree.types.isEmpty()) {
            throw new IllegalStateException("no main sources under " + root);
        }
        return tree;
    }

    /** Every {@code .java} file under a module's {@code tree} ({@code /src/main/java/} or {@code /src/test/java/}). */
    static List<Path> sources(Path root, String tree) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> root.relativize(file).toString().replace('\\', '/').contains(tree))
                    .filter(file -> !root.relativize(file).toString().contains("/target/"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void add(Path file) {
        String source = read(file);
        String name = file.getFileName().toString().replace(".java", "");
        if (name.equals("package-info")) {
            return;
        }
        Matcher pkg = PACKAGE.matcher(source);
        String prefix = pkg.find() ? pkg.group(1) + "." : "";
        String outer = prefix + name;
        index(new Type(outer, file, source));
        // Nested types are named after the file's type; deeper nesting is rare enough to read as one level.
        Matcher nested = NESTED.matcher(withoutComments(source));
        while (nested.find()) {
            if (!nested.group(1).equals(name)) {
                index(new Type(outer + "." + nested.group(1), file, source));
            }
        }
    }

    private void index(Type type) {
        types.add(type);
        bySimpleName.computeIfAbsent(type.simpleName(), key -> new ArrayList<>()).add(type);
    }

    /**
     * The type {@code reference} names: a simple name ({@code ClosedState}), one qualified by the
     * end of its package ({@code internal.ConnectionTuning}, {@code config.metrics.AgentfuseBreakerMetrics})
     * or a nested type ({@code StepFailure.Kind}). A simple name declared in several modules
     * resolves to any of them: the documents name a type where the module is clear from the text.
     */
    Optional<Type> resolve(String reference) {
        String simple = reference.substring(reference.lastIndexOf('.') + 1);
        String suffix = "." + reference;
        return bySimpleName.getOrDefault(simple, List.of()).stream()
                .filter(type -> type.qualifiedName().equals(reference) || type.qualifiedName().endsWith(suffix))
                .findFirst();
    }

    /** The packages of the main sources, each with the directory that holds it (one per module). */
    Map<Path, String> mainPackageDirectories() {
        Map<Path, String> packages = new HashMap<>();
        for (Type type : types) {
            if (!root.relativize(type.file()).toString().replace('\\', '/').contains("/src/main/java/")) {
                continue;
            }
            if (!type.qualifiedName().contains(".") || type.file().getParent() == null) {
                continue;
            }
            String qualified = type.qualifiedName();
            String simple = type.file().getFileName().toString().replace(".java", "");
            int at = qualified.lastIndexOf("." + simple);
            if (at > 0 && qualified.endsWith("." + simple)) {
                packages.put(type.file().getParent(), qualified.substring(0, at));
            }
        }
        return packages;
    }

    Path root() {
        return root;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code source} without comments and string contents, so that a word in prose declares nothing.
     * A scan rather than regular expressions: those recurse once per character of a long string.
     */
    static String withoutComments(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                i = until(source, "\n", i + 2) - 1; // keep the line end
            } else if (source.startsWith("/*", i)) {
                i = until(source, "*/", i + 2);
            } else if (source.startsWith("\"\"\"", i)) {
                code.append("\"\"");
                i = until(source, "\"\"\"", i + 3);
            } else if (c == '"' || c == '\'') {
                code.append(c).append(c);
                int j = i + 1;
                while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                i = j;
            } else {
                code.append(c);
            }
            i++;
        }
        return code.toString();
    }

    /** The index of the last character of the first {@code end} at or after {@code from}; past the text if none. */
    private static int until(String source, String end, int from) {
        int at = source.indexOf(end, from);
        return at < 0 ? source.length() : at + end.length() - 1;
    }
}
