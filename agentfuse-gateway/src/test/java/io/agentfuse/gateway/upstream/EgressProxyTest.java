package io.agentfuse.gateway.upstream;

import io.agentfuse.config.ServerConfig;
import io.vertx.core.net.ProxyOptions;
import io.vertx.core.net.ProxyType;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which proxy a call goes through: the one of its scheme, none for what NO_PROXY lists, read as curl reads it. */
class EgressProxyTest {

    private static EgressProxy egress(String... noProxy) {
        return new EgressProxy(new ServerConfig.Egress(URI.create("http://plain.proxy:8080"),
                URI.create("http://alice:s%3Acret@secure.proxy:3128"), List.of(noProxy)));
    }

    @Test
    void eachSchemeGoesThroughItsOwnProxyWithItsCredentials() {
        ProxyOptions https = egress().proxyFor("api.openai.com", 443, true);
        ProxyOptions http = egress().proxyFor("vllm.lan", 8000, false);

        assertThat(https.getType()).isEqualTo(ProxyType.HTTP);
        assertThat(https.getHost()).isEqualTo("secure.proxy");
        assertThat(https.getPort()).isEqualTo(3128);
        assertThat(https.getUsername()).isEqualTo("alice");
        assertThat(https.getPassword()).isEqualTo("s:cret");
        assertThat(http.getHost()).isEqualTo("plain.proxy");
        assertThat(http.getUsername()).isNull();
    }

    @Test
    void aProxyIsNamedWithoutItsLogin() {
        EgressProxy egress = egress();

        assertThat(EgressProxy.shown(egress.proxyFor("oauth2.googleapis.com", 443, true))).isEqualTo("http://***@secure.proxy:3128");
        assertThat(EgressProxy.shown(egress.proxyFor("metadata.lan", 80, false))).isEqualTo("http://plain.proxy:8080");
    }

    @Test
    void aProxyLoginIsSecretAsItIsSentItsPasswordAndItsBasicCredential() {
        EgressProxy egress = new EgressProxy(new ServerConfig.Egress(URI.create("http://plain.proxy:8080"),
                URI.create("http://alice:s%3Acr%C3%A9t-0123@secure.proxy:3128"), List.of()));

        assertThat(egress.secrets()).containsExactlyInAnyOrder("s:crét-0123",
                Base64.getEncoder().encodeToString("alice:s:crét-0123".getBytes(StandardCharsets.UTF_8)));
        assertThat(new EgressProxy(new ServerConfig.Egress(URI.create("http://plain.proxy:8080"), null, List.of())).secrets())
                .as("no login, no secret").isEmpty();
    }

    @Test
    void withoutAProxyForItsSchemeACallGoesOutDirectly() {
        EgressProxy httpsOnly = new EgressProxy(new ServerConfig.Egress(null, URI.create("http://secure.proxy:3128"), List.of()));

        assertThat(httpsOnly.proxyFor("vllm.lan", 8000, false)).isNull();
        assertThat(new EgressProxy(ServerConfig.Egress.DIRECT).proxyFor("api.openai.com", 443, true)).isNull();
    }

    @Test
    void noProxyNamesAHostAndItsSubdomainsWithOrWithoutALeadingDot() {
        EgressProxy egress = egress("internal.corp", ".lan");

        assertThat(egress.bypassed("internal.corp", 443)).isTrue();
        assertThat(egress.bypassed("llm.internal.corp", 443)).isTrue();
        assertThat(egress.bypassed("LLM.Internal.Corp", 443)).as("names compare without case").isTrue();
        assertThat(egress.bypassed("lan", 80)).isTrue();
        assertThat(egress.bypassed("vllm.lan", 80)).isTrue();
        assertThat(egress.bypassed("notinternal.corp", 443)).as("a suffix that is not a subdomain").isFalse();
        assertThat(egress.bypassed("api.openai.com", 443)).isFalse();
    }

    @Test
    void noProxyEntriesWithAPortMatchThatPortOnly() {
        EgressProxy egress = egress("vllm.lan:8000", "[::1]:9000");

        assertThat(egress.bypassed("vllm.lan", 8000)).isTrue();
        assertThat(egress.bypassed("vllm.lan", 443)).isFalse();
        assertThat(egress.bypassed("::1", 9000)).isTrue();
        assertThat(egress.bypassed("[::1]", 9001)).isFalse();
    }

    @Test
    void addressesMatchThemselvesOnlyAndAStarMatchesEverything() {
        EgressProxy egress = egress("10.0.0.7", "::1");

        assertThat(egress.bypassed("10.0.0.7", 80)).isTrue();
        assertThat(egress.bypassed("110.0.0.7", 80)).isFalse();
        assertThat(egress.bypassed("[::1]", 80)).isTrue();
        assertThat(egress("*").proxyFor("api.openai.com", 443, true)).isNull();
    }
}
