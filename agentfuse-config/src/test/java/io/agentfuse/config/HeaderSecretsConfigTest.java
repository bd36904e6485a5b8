package io.agentfuse.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The secrets that travel in an HTTP header — a provider's {@code apiKey}, a client's {@code key},
 * {@code server.adminToken} — must be sendable as one: a value with a line break or surrounding
 * spaces (a secret file's trailing newline, read into a variable) is an error naming the key and
 * its line, never the value (regression: a provider key ending in a newline started, and every call
 * of that provider failed with a 502 whose message quoted "Bearer <the key>" to the caller; a client
 * key ending in one could never be presented, so every caller got 401).
 */
class HeaderSecretsConfigTest {

    private static final String SECRET = "sk-secret-1234";

    private static ConfigException errors(String yaml, Map<String, String> environment) {
        return catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml, "secrets.yaml", environment));
    }

    @Test
    void aProviderKeyEndingInALineBreakIsAnErrorAtItsLineThatDoesNotShowIt() {
        ConfigException failure = errors("""
                providers:
                  openai: { type: openai, apiKey: "${OPENAI_KEY}" }
                """, Map.of("OPENAI_KEY", SECRET + "\n"));

        assertThat(failure).isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("providers.openai.apiKey");
            assertThat(error.line()).isEqualTo(2);
            assertThat(error.message()).contains("line break").doesNotContain(SECRET);
        });
        assertThat(failure.getMessage()).doesNotContain(SECRET);
    }

    @Test
    void aBuiltInProvidersKeyFromItsVariableIsCheckedToo() {
        ConfigException failure = errors("server: { port: 0 }", Map.of("ANTHROPIC_API_KEY", SECRET + "\r\n"));

        assertThat(failure).isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("providers.anthropic.apiKey");
            assertThat(error.message()).contains("ANTHROPIC_API_KEY").doesNotContain(SECRET);
        });
    }

    @Test
    void aClientKeyWithSurroundingSpacesIsAnError() {
        ConfigException failure = errors("""
                clients:
                  team-a: { key: "${TEAM_A_KEY}" }
                """, Map.of("TEAM_A_KEY", " " + SECRET + " "));

        assertThat(failure).isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("clients.team-a.key");
            assertThat(error.line()).isEqualTo(2);
            assertThat(error.message()).doesNotContain(SECRET);
        });
    }

    @Test
    void anAdminTokenWithALineBreakIsAnError() {
        ConfigException failure = errors("""
                server:
                  adminToken: "${TOKEN}"
                """, Map.of("TOKEN", SECRET + "\n"));

        assertThat(failure).isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("server.adminToken");
            assertThat(error.message()).doesNotContain(SECRET);
        });
    }

    @Test
    void keysOfPrintableTextWithInnerSpacesOrSymbolsAreAccepted() {
        AgentfuseConfig config = ConfigLoader.parse("""
                providers:
                  openai: { type: openai, apiKey: "sk-a/b+c=d e" }
                clients:
                  team-a: { key: "k!#$%&'()*+,-./:;<=>?@[]^_`{|}~" }
                server:
                  adminToken: "t0ken"
                """, "secrets.yaml", Map.of());

        assertThat(config.providers().get("openai").apiKey()).isEqualTo("sk-a/b+c=d e");
        assertThat(config.clients().get("team-a").key()).isEqualTo("k!#$%&'()*+,-./:;<=>?@[]^_`{|}~");
        assertThat(config.server().adminToken()).isEqualTo("t0ken");
    }
}
