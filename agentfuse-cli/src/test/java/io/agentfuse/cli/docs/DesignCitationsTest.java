package io.agentfuse.cli.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The code and the documents cite the design by section ({@code docs/design.md §3}); each citation
 * names a section the document has, so a renumbering or a lost section cannot go unnoticed.
 */
class DesignCitationsTest {

    private static final Pattern CITATION = Pattern.compile("docs/design\\.md\\s+§(\\d+)");
    /** How the code cited the design brief before the repository had its own design document. */
    private static final String OLD_CITATION = "DESIGN" + " §";
    private static final Pattern SECTION = Pattern.compile("(?m)^## (\\d+)\\. ");

    private final Path root = SourceTree.repositoryRoot();

    private Set<String> sections() {
        Set<String> sections = new HashSet<>();
        Matcher heading = SECTION.matcher(SourceTree.read(root.resolve("docs/design.md")));
        while (heading.find()) {
            sections.add(heading.group(1));
        }
        return sections;
    }

    private List<Path> citingFiles() {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> {
                        String path = root.relativize(file).toString().replace('\\', '/');
                        return (path.endsWith(".java") || path.endsWith(".md"))
                                && !path.startsWith(".") && !path.contains("/target/") && !path.contains("node_modules");
                    })
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theDesignHasItsFourteenSections() {
        assertThat(sections()).containsExactlyInAnyOrder(
                "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
    }

    @Test
    void everyCitationNamesASectionOfTheDesign() {
        Set<String> sections = sections();
        List<String> broken = new ArrayList<>();
        int citations = 0;
        for (Path file : citingFiles()) {
            Matcher citation = CITATION.matcher(SourceTree.read(file));
            while (citation.find()) {
                citations++;
                if (!sections.contains(citation.group(1))) {
                    broken.add(root.relativize(file) + ": §" + citation.group(1));
                }
            }
        }

        assertThat(citations).as("citations found").isGreaterThan(40);
        assertThat(broken).isEmpty();
    }

    @Test
    void nothingCitesADesignDocumentOutsideTheRepository() {
        List<String> stale = new ArrayList<>();
        for (Path file : citingFiles()) {
            if (SourceTree.read(file).contains(OLD_CITATION)) {
                stale.add(root.relativize(file).toString());
            }
        }

        assertThat(stale).as("files citing '" + OLD_CITATION + "n' instead of docs/design.md").isEmpty();
    }
}
