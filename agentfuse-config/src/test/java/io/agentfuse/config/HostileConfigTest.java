package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration files written to hurt: a few hundred bytes of aliases that stand for billions of
 * maps, a file far too long, nesting without end, YAML tags, and a key put under the wrong name
 * through {@code ${ENV}}. Each is refused at once with one error that says where and why, and a
 * value from the environment is never repeated.
 */
class HostileConfigTest {

    private static final String SECRET = "sk-proj-Very5ecretValue0123";

    @Test
    void aMergeKeyBombIsRefusedWithoutExpandingIt() {
        // Given 9 lists of 9 aliases each, nine deep: 9^9 maps behind one merge key, in under 1 KB
        StringBuilder bomb = new StringBuilder("x0: &x0 [{k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}]\n");
        for (int level = 1; level <= 9; level++) {
            String previous = "*x" + (level - 1);
            bomb.append("x").append(level).append(": &x").append(level).append(" [")
                    .append(IntStream.range(0, 9).mapToObj(i -> previous).collect(Collectors.joining(", "))).append("]\n");
        }
        bomb.append("models:\n  m: {<<: *x9, provider: openai}\n");
        assertThat(bomb.length()).isLessThan(1024);

        ConfigException refused = refused(bomb.toString());

        assertThat(refused.errors()).singleElement().satisfies(error -> {
            assertThat(error.message()).contains("aliases (*name)").contains("YAML bomb");
            assertThat(error.line()).isBetween(1, 11);
        });
    }

    @Test
    void manyAliasesOfMapsAreRefusedBeyondTheParsersLimit() {
        // Given 510 aliases of one small map: harmless each, but no configuration needs so many
        String yaml = "base: &base {resetTimeout: 1m}\nbreakers:\n"
                + IntStream.range(0, 510).mapToObj(i -> "  b" + i + ": *base\n").collect(Collectors.joining());

        ConfigException refused = refused(yaml);

        assertThat(refused.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("breakers.b500");
            assertThat(error.message()).isEqualTo("the file has more than 500 aliases (*name) of maps and lists;"
                    + " a configuration needs far fewer (a YAML bomb?)");
        });
    }

    @Test
    void aBombWithinTheAliasCountIsRefusedByTheValuesItStandsFor() {
        // Given 45 aliases only, each level nine times the one below: 9^5 lists of ten values each
        StringBuilder bomb = new StringBuilder("x0: &x0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n");
        for (int level = 1; level <= 5; level++) {
            String previous = "*x" + (level - 1);
            bomb.append("x").append(level).append(": &x").append(level).append(" [")
                    .append(IntStream.range(0, 9).mapToObj(i -> previous).collect(Collectors.joining(", "))).append("]\n");
        }

        ConfigException refused = refused(bomb.toString());

        assertThat(refused.errors()).singleElement().satisfies(error ->
                assertThat(error.message()).contains("more than 100000 values").contains("aliases (*name) and merge keys (<<)"));
    }

    @Test
    void aMergeKeyOfNestedListsIsAnErrorNotAWalk() {
        ConfigException refused = refused("""
                a: &a [[{resetTimeout: 1m}]]
                breakers:
                  b: {<<: *a}
                """);

        assertThat(refused.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo("a");
            assertThat(error.message()).isEqualTo("a merge key (<<) takes a map or a list of maps, but was a list holding something else");
        });
    }

    @Test
    void aFileOverTheSizeLimitIsRefusedBeforeItIsRead(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("agentfuse.yaml");
        Files.writeString(file, "server: {port: 8080}\n# " + "x".repeat(ConfigLoader.MAX_FILE_BYTES) + "\n",
                StandardCharsets.UTF_8);

        ConfigException refused = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(file, Map.of()));

        assertThat(refused.errors()).singleElement().satisfies(error -> assertThat(error.message())
                .isEqualTo("the file is " + Files.size(file) + " bytes long; a configuration file may be at most 1048576"
                        + " bytes (1 MiB), so it is not read"));
    }

    /**
     * Regression: a configuration path that was a symlink to a device reported a size of 0 and was
     * read until the heap ran out (a reload answered 500 after an OutOfMemoryError).
     */
    @Test
    void aPathToADeviceThatNeverEndsIsReadNoFurtherThanTheLimit(@TempDir Path directory) throws IOException {
        Path file = Files.createSymbolicLink(directory.resolve("agentfuse.yaml"), Path.of("/dev/zero"));

        ConfigException refused = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.read(file));

        assertThat(refused.errors()).singleElement().satisfies(error -> assertThat(error.message())
                .isEqualTo("the file is more than 1048576 bytes long; a configuration file may be at most 1048576"
                        + " bytes (1 MiB), so it is not read"));
    }

    @Test
    void aTextOverTheSizeLimitIsRefusedToo() {
        ConfigException refused = refused("server: {port: 8080}\n# " + "x".repeat(ConfigLoader.MAX_FILE_BYTES));

        assertThat(refused.errors()).singleElement().satisfies(error ->
                assertThat(error.message()).contains("may be at most 1048576 bytes"));
    }

    @Test
    void nestingWithoutEndIsRefusedWithoutOverflowingTheStack() {
        ConfigException refused = refused("tools: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n");

        assertThat(refused.errors()).singleElement().satisfies(error ->
                assertThat(error.message()).isEqualTo("maps and lists nest more than 64 deep here"));
    }

    @Test
    void yamlTagsAreRefusedWithKeyAndLine() {
        ConfigException refused = refused("""
                server:
                  port: !!java.lang.Integer 8080
                breakers: !custom
                  b: {resetTimeout: 1m}
                """);

        assertThat(refused.errors()).hasSize(2);
        assertThat(refused.errors().get(0)).satisfies(error -> {
            assertThat(error.path()).isEqualTo("server.port");
            assertThat(error.line()).isEqualTo(2);
            assertThat(error.message()).startsWith("YAML tags are not used in this file, but the value is tagged !!java.lang.Integer");
        });
        assertThat(refused.errors().get(1)).satisfies(error -> {
            assertThat(error.path()).isEqualTo("breakers");
            assertThat(error.line()).isEqualTo(3);
            assertThat(error.message()).contains("tagged !custom");
        });
    }

    @Test
    void aSecretUnderAWrongKeyIsNamedByItsVariableNeverShown() {
        Map<String, String> environment = Map.of("OPENAI_API_KEY", SECRET);

        ConfigException refused = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                providers: { openai: {} }
                server:
                  port: ${OPENAI_API_KEY}
                  maxBodySize: ${OPENAI_API_KEY}
                models:
                  a: { provider: openai, fallbacks: ["${OPENAI_API_KEY}"] }
                permissions:
                  headless: ${OPENAI_API_KEY}
                """, "agentfuse.yaml", environment));

        assertThat(refused.getMessage()).doesNotContain(SECRET).doesNotContain("Very5ecret");
        assertThat(refused.errors()).extracting(ConfigError::path)
                .containsExactly("server.port", "server.maxBodySize", "models.a.fallbacks[0]", "permissions.headless");
        assertThat(refused.errors()).allSatisfy(error ->
                assertThat(error.message()).contains("${OPENAI_API_KEY}").contains("not shown"));
        assertThat(refused.errors().get(0).line()).isEqualTo(3);
    }

    private static ConfigException refused(String yaml) {
        ConfigException refused = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of()));
        assertThat(refused).as("the file is refused").isNotNull();
        return refused;
    }
}
