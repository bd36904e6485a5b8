package io.agentfuse.gateway.internal.vertx;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vert.x's internals ({@code io.vertx.core.internal}, any {@code *.impl} package) are reached from
 * one package only, the seam {@code io.agentfuse.gateway.internal.vertx}: an upgrade of Vert.x is
 * then reviewed in one place, and its start-up check covers every hook.
 */
class VertxInternalsStayInTheSeamTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final Path SEAM = SOURCES.resolve("io/agentfuse/gateway/internal/vertx");
    /** A reference to an internal package, in an import or written out in the code. */
    private static final Pattern INTERNAL = Pattern.compile("\\bio\\.vertx\\.core\\.internal\\.|\\b(?:[a-z][a-z0-9_]*\\.)+impl\\.[A-Za-z]");

    @Test
    void noPackageButTheSeamReachesVertxInternals() {
        List<String> outside = new ArrayList<>();
        for (Path source : sources()) {
            if (!source.startsWith(SEAM)) {
                outside.addAll(internalReferences(source));
            }
        }

        assertThat(outside).as("Vert.x internals referenced outside %s", SEAM).isEmpty();
    }

    @Test
    void theCheckSeesAnInternalWhereverItIsWritten() {
        // Given the seam's own sources, which reach the internals on purpose
        List<String> inSeam = new ArrayList<>();
        for (Path source : sources()) {
            if (source.startsWith(SEAM)) {
                inSeam.addAll(internalReferences(source));
            }
        }

        // Then the check finds them, imported and written out alike
        assertThat(inSeam).anyMatch(line -> line.contains("import io.vertx.core.internal."))
                .anyMatch(line -> line.contains("import io.vertx.core.net.impl.ConnectionBase"))
                .anyMatch(line -> line.contains("import io.vertx.ext.web.impl."));
        assertThat(INTERNAL.matcher("var x = (io.vertx.core.http.impl.HttpServerImpl) server;").find()).isTrue();
        assertThat(INTERNAL.matcher("import io.vertx.core.http.HttpServer;").find()).isFalse();
    }

    private static List<Path> sources() {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            List<Path> sources = files.filter(file -> file.toString().endsWith(".java")).toList();
            assertThat(sources).as("the gateway's sources under %s", SOURCES.toAbsolutePath()).isNotEmpty();
            return sources;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of {@code source} that reference an internal, outside comments, as "file:line: text". */
    private static List<String> internalReferences(Path source) {
        List<String> found = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(source);
            boolean inComment = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                boolean comment = inComment || line.startsWith("*") || line.startsWith("//") || line.startsWith("/*");
                if (line.startsWith("/*")) {
                    inComment = !line.contains("*/");
                } else if (inComment && line.contains("*/")) {
                    inComment = false;
                }
                Matcher internal = INTERNAL.matcher(line);
                if (!comment && internal.find()) {
                    found.add(source + ":" + (i + 1) + ": " + line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }
}
