package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/design.md §6, "Models that need no entry": a family name one or two edits away from a configured
 * model or a model of the built-in table, and not itself in that table, is an error with "did you
 * mean" — a typo in a fallback list must not wait for the outage it was meant for; other family
 * names the table does not know are accepted, with a warning.
 */
class FamilyNameTyposTest {

    private static ConfigException refused(String yaml) {
        ConfigException refused = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of()));
        assertThat(refused).as("the file is refused").isNotNull();
        return refused;
    }

    @Test
    void aTypoOfATableModelInAFallbackListIsAnErrorWithKeyLineAndWhatWasMeant() {
        ConfigException refused = refused("""
                models:
                  main:
                    provider: openai
                    fallbacks: [claude-hauku-4, gpt-4o-mini]
                """);

        assertThat(refused.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("models.main.fallbacks[0]");
            assertThat(error.line()).isEqualTo(4);
            assertThat(error.message()).startsWith("unknown model \"claude-hauku-4\"; did you mean \"claude-haiku-4\"?");
        });
    }

    @ParameterizedTest
    @CsvSource({"claude-sonet-5, claude-sonnet-5", "claude-opsu-5-5, claude-opus-5-5", "claude-fabel-5-1, claude-fable-5-1",
            "gpt-6.1-sl, gpt-6.1-sol"})
    void aTypoOfTodaysModelsIsAnErrorSayingWhatWasMeant(String typo, String meant) {
        ConfigException refused = refused("models:\n  main:\n    provider: openai\n    fallbacks: [" + typo + "]\n");

        assertThat(refused.errors()).singleElement().satisfies(error ->
                assertThat(error.message()).startsWith("unknown model \"" + typo + "\"; did you mean \"" + meant + "\"?"));
    }

    @Test
    void aTypoOfAConfiguredModelIsCaughtToo() {
        ConfigException refused = refused("""
                models:
                  gpt-4o-team: { provider: openai, upstreamModel: gpt-4o }
                  main: { provider: openai, fallbacks: [gpt-4o-taem] }
                """);

        assertThat(refused.errors()).singleElement().satisfies(error ->
                assertThat(error.message()).startsWith("unknown model \"gpt-4o-taem\"; did you mean \"gpt-4o-team\"?"));
    }

    @Test
    void theSubagentsFallbacksAndTheCompactModelAreCheckedAlike() {
        ConfigException refused = refused("""
                subagents:
                  fallbacks: [claude-haiku-4, gpt-4o-mimi, null]
                context:
                  compactModel: claude-sonet-4
                """);

        assertThat(refused.errors()).extracting(ConfigError::path, ConfigError::line)
                .containsExactly(tuple("subagents.fallbacks[1]", 2),
                        tuple("context.compactModel", 4));
        assertThat(refused.errors().get(0).message()).contains("did you mean \"gpt-4o-mini\"?");
        assertThat(refused.errors().get(1).message()).contains("did you mean \"claude-sonnet-4\"?");
    }

    @Test
    void aBudgetsFallbackIsCheckedAlike() {
        ConfigException refused = refused("""
                budgets:
                  per-session:
                    scope: session
                    tokens: 500000
                    onExhausted: { fallback: gpt-4o-mimi }
                """);

        assertThat(refused.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("budgets.per-session.onExhausted.fallback");
            assertThat(error.line()).isEqualTo(5);
            assertThat(error.message()).startsWith("unknown model \"gpt-4o-mimi\"; did you mean \"gpt-4o-mini\"?");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-sonnet-4-5-20250929", "gpt-4o-2024-08-06", "o3-mini", "claude-3-5-haiku-latest",
            "gpt-4.1-nano", "claude-opus-4-1", "claude-sonnet-5", "claude-sonnet-5-20260630", "claude-opus-5-5",
            "claude-fable-5-2", "claude-haiku-5-5", "gpt-6.1-sol", "gpt-5.5", "gemini-3.1-pro-preview"})
    void namesOfTheTableAndTheirDatedSnapshotsAreServedWithoutAWord(String name, @TempDir Path directory) throws IOException {
        CheckedConfig checked = check(directory, "models:\n  main: { provider: openai, fallbacks: [" + name + "] }\n");

        assertThat(checked.config().models()).containsKey(name);
        assertThat(checked.warnings()).isEmpty();
    }

    @Test
    void aFamilyNameFarFromEveryKnownModelIsAcceptedWithAWarning(@TempDir Path directory) throws IOException {
        CheckedConfig checked = check(directory, """
                models:
                  main: { provider: anthropic, fallbacks: [claude-future-9-experimental] }
                """);

        assertThat(checked.config().models()).containsKey("claude-future-9-experimental");
        assertThat(checked.warnings()).singleElement().satisfies(warning -> {
            assertThat(warning.path()).isEqualTo("models.main.fallbacks[0]");
            assertThat(warning.line()).isEqualTo(2);
            assertThat(warning.message()).startsWith("model \"claude-future-9-experimental\" is not configured and not in"
                    + " agentfuse's table of models: it goes to the anthropic provider as written");
        });
    }

    @Test
    void aNameOfNoFamilyIsStillAnErrorListingTheConfiguredModels() {
        ConfigException refused = refused("""
                models:
                  main: { provider: openai, fallbacks: [llama-3.1-70b] }
                """);

        assertThat(refused.errors()).singleElement().satisfies(error ->
                assertThat(error.message()).isEqualTo("unknown model \"llama-3.1-70b\"; configured: main"));
    }

    private static CheckedConfig check(Path directory, String yaml) throws IOException {
        return ConfigLoader.check(Files.writeString(directory.resolve("agentfuse.yaml"), yaml), Map.of());
    }
}
