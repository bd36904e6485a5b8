package io.agentfuse.cli.docs;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ARCHITECTURE.md stays true to the code: every type it names in a code span exists in some
 * module's main sources, and every member it names ({@code Type#member}, {@code Type.member()},
 * {@code Type.CONSTANT}) is declared in that type's file. A code span names a type when it reads
 * like one: a capitalised identifier, optionally after the end of its package
 * ({@code internal.ConnectionTuning}) or with nested types ({@code StepFailure.Kind}). Header names
 * are written in lower case there ({@code host}, {@code expect}), as HTTP allows, so they never read
 * as types.
 */
class ArchitectureDocTest {

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern TYPE_REFERENCE = Pattern.compile(
            "((?:[a-z][a-z0-9]*\\.)*[A-Z][A-Za-z0-9]*(?:\\.[A-Z][a-z][A-Za-z0-9]*)*)"
                    + "(?:[#.]([a-z][A-Za-z0-9]*|[A-Z][A-Z0-9_]+)(?:\\(\\))?)?");

    private final Path root = SourceTree.repositoryRoot();
    private final SourceTree sources = SourceTree.of(root);

    /** A code span that names a type, and the member it names (or {@code null}). */
    record Reference(String span, String type, String member) {
    }

    private List<Reference> references() {
        List<Reference> references = new ArrayList<>();
        Matcher spans = CODE_SPAN.matcher(SourceTree.read(root.resolve("ARCHITECTURE.md")));
        while (spans.find()) {
            Matcher reference = TYPE_REFERENCE.matcher(spans.group(1));
            if (reference.matches()) {
                references.add(new Reference(spans.group(1), reference.group(1), reference.group(2)));
            }
        }
        return references;
    }

    @Test
    void theArchitectureNamesTypesAtAll() {
        // Guards the parsing itself: a pattern that matched nothing would let every other test pass.
        assertThat(references()).hasSizeGreaterThan(50);
    }

    @Test
    void everyTypeTheArchitectureNamesExists() {
        List<String> missing = references().stream()
                .filter(reference -> sources.resolve(reference.type()).isEmpty())
                .map(Reference::span)
                .toList();

        assertThat(missing).as("types ARCHITECTURE.md names that no main source declares").isEmpty();
    }

    @Test
    void everyMemberTheArchitectureNamesIsDeclaredByItsType() {
        List<String> missing = new ArrayList<>();
        for (Reference reference : references()) {
            Optional<SourceTree.Type> type = sources.resolve(reference.type());
            if (reference.member() == null || type.isEmpty()) {
                continue;
            }
            String code = SourceTree.withoutComments(type.get().source());
            if (!Pattern.compile("\\b" + Pattern.quote(reference.member()) + "\\b").matcher(code).find()) {
                missing.add(reference.span() + " (not in " + root.relativize(type.get().file()) + ")");
            }
        }

        assertThat(missing).as("members ARCHITECTURE.md names that their type does not declare").isEmpty();
    }
}
