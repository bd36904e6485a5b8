package io.agentfuse.cli.docs;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every package of every module says what it is for, in a {@code package-info.java} with Javadoc. */
class PackageInfoTest {

    private final Path root = SourceTree.repositoryRoot();

    @Test
    void everyPackageHasAPackageInfoThatSaysWhatItIsFor() {
        Map<Path, String> packages = SourceTree.of(root).mainPackageDirectories();
        List<String> undocumented = new ArrayList<>();
        packages.keySet().forEach(directory -> {
            Path info = directory.resolve("package-info.java");
            if (!Files.exists(info) || !SourceTree.read(info).contains("/**")) {
                undocumented.add(root.relativize(directory).toString());
            }
        });

        assertThat(packages).as("packages found").hasSizeGreaterThan(40);
        assertThat(undocumented).isEmpty();
    }
}
