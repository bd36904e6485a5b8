package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A secret that a provider or a proxy echoes escaped or encoded is as readable as the secret: each of
 * its forms, JSON-escaped, percent-encoded or a mix of both, stands as {@code [redacted]}.
 */
class RedactionTest {

    /** Base64, as an AWS session token is: {@code /}, {@code +} and {@code =}. */
    private static final String KEY = "sk-oai/conf+igured==";
    private static final String PROXY_KEY = "Basic dGVhbTpwcm94eQ==";
    private static final ProviderEndpoint PROVIDER = new ProviderEndpoint("openai", Dialects.OPENAI,
            "http://127.0.0.1:1/v1", KEY, Map.of("x-proxy-key", PROXY_KEY));

    @Test
    void aKeyWithItsSlashesJsonEscapedIsRedacted() {
        assertThat(Redaction.of(PROVIDER, "{\"message\":\"Bearer sk-oai\\/conf+igured== refused\"}"))
                .isEqualTo("{\"message\":\"Bearer [redacted] refused\"}");
    }

    @Test
    void aKeyWrittenInJsonUnicodeEscapesOfEitherCaseIsRedacted() {
        assertThat(Redaction.of(PROVIDER, "key sk-oai\\u002fconf\\u002Bigured\\u003d\\u003D!"))
                .isEqualTo("key [redacted]!");
    }

    @Test
    void aPercentEncodedKeyOfEitherCaseIsRedacted() {
        assertThat(Redaction.of(PROVIDER, "GET /v1?key=sk-oai%2Fconf%2bigured%3D%3d&x=1"))
                .isEqualTo("GET /v1?key=[redacted]&x=1");
    }

    @Test
    void aKeyWrittenOneCharacterOneWayAndTheNextAnotherIsRedacted() {
        assertThat(Redaction.of(PROVIDER, "saw sk%2Doai\\/conf%2Bigured\\u003d=."))
                .isEqualTo("saw [redacted].");
    }

    @Test
    void aConfiguredHeaderValueWithASpaceFormEncodedIsRedacted() {
        assertThat(Redaction.of(PROVIDER, "x-proxy-key=Basic+dGVhbTpwcm94eQ%3D%3D"))
                .isEqualTo("x-proxy-key=[redacted]");
    }

    @Test
    void theEncodedStartOfAKeyThatAnExcerptCutShortIsRedacted() {
        assertThat(Redaction.of(PROVIDER, "'Bearer sk-oai%2Fconf%2…'")).isEqualTo("'Bearer [redacted]…'");
        assertThat(Redaction.of(PROVIDER, "'Bearer sk-oai\\/conf…'")).isEqualTo("'Bearer [redacted]…'");
    }

    @Test
    void aHeaderValueAndAStreamEventThatEchoAnEncodedKeyAreRedacted() {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("location", "https://x/?key=sk-oai%2Fconf%2Bigured%3D%3D");

        assertThat(Redaction.of(PROVIDER, headers)).containsExactly(Map.entry("location", "https://x/?key=[redacted]"));
        assertThat(Redaction.of(PROVIDER, List.of(new SseEvent("error", "{\"key\":\"sk-oai\\/conf+igured==\"}", null))))
                .singleElement().satisfies(event -> assertThat(event.data()).isEqualTo("{\"key\":\"[redacted]\"}"));
    }
}
