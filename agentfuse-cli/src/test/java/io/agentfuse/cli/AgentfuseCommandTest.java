package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line run in-process, with its output captured. */
class AgentfuseCommandTest {

    private static final Path EXAMPLE = Path.of("").toAbsolutePath().getParent().resolve("examples/agentfuse.yaml");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void validatesTheExampleFileAndSummarisesIt() {
        int exitCode = run("validate", "--config", EXAMPLE.toString());

        assertThat(exitCode).isZero();
        assertThat(out.toString())
                .startsWith(EXAMPLE + " is valid.")
                .contains("claude-sonnet-4: anthropic as claude-sonnet-4-5")
                .contains("fallbacks: claude-haiku-4 → gpt-4o-mini → give up")
                .contains("breaker model:claude-sonnet-4 (default): opens on 3 timeouts (or > 1m) in a row")
                .contains("4 attempts, waits 2s, 4s, 8s, no jitter, honours Retry-After")
                .contains("tool:search/web_search: timeout 30s, 2 retries; breaker opens on 5 failures in a row;"
                        + " stays open 5m, then 1 probe")
                .contains("browser: timeout 1m, 2 retries; breaker opens on 3 failures in a row; stays open 10m");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void validateShowsEachBudgetAndWhatItCovers(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("agentfuse.yaml"), """
                clients:
                  team-a: { key: "${TEAM_A_KEY}", tenant: team-a }
                budgets:
                  per-tenant: { scope: tenant, tokens: 2000000, cost: 50.00, window: 1d }
                  per-session: { scope: session, tokens: 500000, window: 24h, onExhausted: { fallback: gpt-4o-mini } }
                  per-key: { scope: key, cost: 5 }
                """);

        int exitCode = run(Map.of("TEAM_A_KEY", "sk-secret-key"), "validate", "--config", file.toString());

        assertThat(exitCode).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("Clients (every model and MCP request needs one of their keys)")
                .contains("team-a: tenant team-a, key set")
                .contains("per-tenant: 2000000 tokens and 50.00 USD per 1d per tenant (team-a); when spent: refused (429 budget_exceeded)")
                .contains("per-session: 500000 tokens per 1d per session (the x-agentfuse-session header;"
                        + " requests without it are not counted); when spent: served by gpt-4o-mini")
                .contains("per-key: 5 USD per 1d per client key (team-a)")
                .doesNotContain("sk-secret-key");
    }

    @Test
    void printsEveryErrorAndExitsWithTwo(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("agentfuse.yaml"), """
                server:
                  port: 70000
                tools:
                  web_search:
                    circuitBreaker: { failureThreshold: 0 }
                """);

        int exitCode = run("validate", "--config", file.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(
                file + ":2:9: server.port: must be between 0 and 65535, but was 70000",
                file + ":5:41: tools.web_search.circuitBreaker.failureThreshold: must be >= 1, but was 0",
                file + ": 2 errors; nothing would start.");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aFamilyNameOneEditFromAKnownModelIsAnErrorSayingWhatWasMeant(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("agentfuse.yaml"), """
                models:
                  main: { provider: openai, fallbacks: [claude-hauku-4, gpt-4o-mini] }
                """);

        int exitCode = run("validate", "--config", file.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString()).startsWith(file + ":2:41: models.main.fallbacks[0]: unknown model \"claude-hauku-4\";"
                + " did you mean \"claude-haiku-4\"?");
    }

    @Test
    void aFamilyNameTheTableDoesNotKnowIsListedAsAWarning(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("agentfuse.yaml"), """
                models:
                  main: { provider: openai, fallbacks: [gpt-9-turbo-preview] }
                """);

        int exitCode = run("validate", "--config", file.toString());

        assertThat(exitCode).isZero();
        assertThat(out.toString().lines()).contains(file + " is valid.",
                "warning: " + file + ":2:41: models.main.fallbacks[0]: model \"gpt-9-turbo-preview\" is not configured and not"
                        + " in agentfuse's table of models: it goes to the openai provider as written, with a context window of"
                        + " 1050000 tokens (its family's); configure it under models: to be sure of both");
    }

    @Test
    void resolvesEnvironmentVariablesFromTheGivenEnvironment(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("agentfuse.yaml"),
                "providers:\n  openai: { apiKey: \"${OPENAI_API_KEY}\" }\n");

        int missing = run("validate", "--config", file.toString());
        int set = CommandLine.ExitCode.OK == run(Map.of("OPENAI_API_KEY", "sk-test"), "validate", "-c", file.toString())
                ? 0 : 1;

        assertThat(missing).isEqualTo(2);
        assertThat(set).isZero();
        assertThat(out.toString()).contains("openai: openai at https://api.openai.com/v1, API key set");
    }

    @Test
    void aMissingFileIsAnErrorWithExitCodeTwo(@TempDir Path directory) {
        Path missing = directory.resolve("missing.yaml");

        assertThat(run("validate", "--config", missing.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(missing + ": no such file");
    }

    @Test
    void validateWithoutConfigIsAUsageError() {
        assertThat(run("validate")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--config=FILE'");
    }

    @Test
    void helpListsTheCommandsAndExitsWithZero() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("Usage: agentfuse", "validate", "--version");
    }

    @Test
    void validateHelpExplainsTheExitCodes() {
        assertThat(run("validate", "--help")).isZero();
        assertThat(out.toString()).contains("--config=FILE", "0   the file is valid", "2   the file has errors");
    }

    @Test
    void versionIsTheProjectVersion() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString()).startsWith("agentfuse " + VersionProvider.version());
        assertThat(VersionProvider.version()).matches("\\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void noCommandPrintsUsageAndExitsWithTwo() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString()).contains("Missing a command.", "Usage: agentfuse");
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertThat(run("serv")).isEqualTo(2);
        assertThat(err.toString()).contains("Unmatched argument at index 0: 'serv'");
    }

    private int run(String... args) {
        return run(Map.of(), args);
    }

    private int run(Map<String, String> environment, String... args) {
        CommandLine commandLine = AgentfuseCommand.commandLine(environment);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }
}
