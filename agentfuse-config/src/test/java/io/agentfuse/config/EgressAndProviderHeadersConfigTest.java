package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How upstream calls leave ({@code server.egressProxy}, the proxy variables) and the headers a provider adds. */
class EgressAndProviderHeadersConfigTest {

    @Test
    void withoutAProxyAnywhereUpstreamCallsGoOutDirectly() {
        assertThat(ConfigLoader.parse("server: {}\n", "a.yaml", Map.of()).server().egress())
                .isEqualTo(ServerConfig.Egress.DIRECT);
    }

    @Test
    void theProxyVariablesOfTheEnvironmentServeEachTheirScheme() {
        ServerConfig.Egress egress = ConfigLoader.parse("server: {}\n", "a.yaml", Map.of(
                "HTTPS_PROXY", "http://secure.proxy:3128", "http_proxy", "http://plain.proxy:8080",
                "HTTP_PROXY", "http://ignored.proxy:1", "NO_PROXY", " localhost, .internal,10.0.0.7:8000 ,,")).server().egress();

        assertThat(egress.httpsProxy()).isEqualTo(URI.create("http://secure.proxy:3128"));
        assertThat(egress.httpProxy()).as("the lower-case name first, as curl reads them").isEqualTo(URI.create("http://plain.proxy:8080"));
        assertThat(egress.noProxy()).containsExactly("localhost", ".internal", "10.0.0.7:8000");
    }

    @Test
    void theConfiguredProxyServesEveryUpstreamAndNoProxyStillApplies() {
        ServerConfig.Egress egress = ConfigLoader.parse("server:\n  egressProxy: http://user:secret@proxy.corp:3128\n",
                "a.yaml", Map.of("HTTPS_PROXY", "http://other:1", "no_proxy", "llm.internal")).server().egress();

        assertThat(egress.httpsProxy()).isEqualTo(URI.create("http://user:secret@proxy.corp:3128")).isEqualTo(egress.httpProxy());
        assertThat(egress.noProxy()).containsExactly("llm.internal");
        assertThat(egress.toString()).doesNotContain("secret").contains("http://***@proxy.corp:3128");
    }

    @Test
    void aConfiguredProxyThatIsNotAnHttpUrlIsReportedWithoutItsLogin() {
        for (String written : new String[] {"https://proxy-user:Pr0xySecret@proxy.corp:3128", "proxy-user:Pr0xySecret@proxy.corp:3128"}) {
            ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                    "server:\n  egressProxy: \"" + written + "\"\n", "a.yaml", Map.of()));

            assertThat(failure.errors()).singleElement().satisfies(error -> {
                assertThat(error.path()).isEqualTo("server.egressProxy");
                assertThat(error.line()).isEqualTo(2);
                assertThat(error.message()).contains("must be an absolute http URL", "***@proxy.corp:3128")
                        .doesNotContain("Pr0xySecret", "proxy-user");
            });
            assertThat(failure.getMessage()).doesNotContain("Pr0xySecret");
        }
    }

    @Test
    void aProxyThatIsNotAnHttpUrlIsReportedUnderTheKeyOrTheVariable() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                "server:\n  egressProxy: socks5://proxy:1080\n", "a.yaml", Map.of()));
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("server.egressProxy");
            assertThat(error.line()).isEqualTo(2);
            assertThat(error.message()).contains("http", "socks5://proxy:1080");
        });

        ConfigException fromEnvironment = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                "server: {}\n", "a.yaml", Map.of("HTTPS_PROXY", "proxy-user:Pr0xySecret@proxy.corp:3128")));
        assertThat(fromEnvironment.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("HTTPS_PROXY (environment)");
            // a value from the environment is never shown: a proxy URL may carry a password
            assertThat(error.message()).contains("the value of \"HTTPS_PROXY\" (from the environment, not shown)")
                    .doesNotContain("Pr0xySecret");
        });
    }

    @Test
    void aProvidersHeadersAreReadInTheOrderWritten() {
        ProviderConfig provider = ConfigLoader.parse("""
                providers:
                  internal:
                    type: openai
                    baseUrl: http://llm.internal/v1
                    headers: { x-team: agents, X-Route: "${ROUTE}", x-empty: "" }
                """, "a.yaml", Map.of("ROUTE", "blue")).providers().get("internal");

        assertThat(provider.headers()).containsExactly(Map.entry("x-team", "agents"), Map.entry("X-Route", "blue"),
                Map.entry("x-empty", ""));
        assertThat(provider.toString()).doesNotContain("agents", "blue");
    }

    @Test
    void aHeaderWithABadNameOrValueIsReportedWithItsPath() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                providers:
                  internal:
                    type: openai
                    baseUrl: http://llm.internal/v1
                    headers: { "bad name": x, x-list: [1, 2], x-ok: fine }
                """, "a.yaml", Map.of()));

        assertThat(failure.errors()).extracting(ConfigError::path)
                .containsExactlyInAnyOrder("providers.internal.headers.bad name", "providers.internal.headers.x-list");
        assertThat(failure.errors()).extracting(ConfigError::message).anyMatch(message -> message.contains("\"bad name\""))
                .anyMatch(message -> message.contains("must be a string"));
    }
}
