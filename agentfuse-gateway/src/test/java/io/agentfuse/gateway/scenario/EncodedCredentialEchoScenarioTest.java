package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider, or a proxy in front of it, that echoes the gateway's credentials escaped or encoded
 * (JSON-escaped as some serializers write {@code /} and {@code +}, percent-encoded in a URL it echoes)
 * hands a caller no more of them than one that echoes them as sent (docs/design.md §12): keys and AWS
 * session tokens are base64-like, with {@code /}, {@code +} and {@code =}, and each form stands as
 * {@code [redacted]}.
 */
class EncodedCredentialEchoScenarioTest {

    private static final String OPENAI_KEY = "sk-oai/conf+igured==";
    private static final String OPENAI_CHUNK = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
            + "\"finish_reason\":null}]}\n\n";

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    /** {@code secret} as a serializer that escapes {@code /} and HTML-unsafe characters writes it in a JSON string. */
    private static String jsonEscaped(String secret) {
        return secret.replace("/", "\\/").replace("+", "\\u002b").replace("=", "\\u003d");
    }

    /** {@code secret} as a query parameter's value. */
    private static String percentEncoded(String secret) {
        return secret.replace("/", "%2F").replace("+", "%2B").replace("=", "%3D");
    }

    private static GatewayHarness openAiWithKey() {
        return GatewayHarness.start(GatewayHarness.CONFIG
                .replace("apiKey: \"sk-oai-configured\"", "apiKey: \"" + OPENAI_KEY + "\"")
                .replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }", "gpt-4o-mini: { provider: openai }"));
    }

    @Test
    void aClientErrorThatEchoesTheKeyJsonEscapedIsPassedOnWithoutIt() {
        harness = openAiWithKey();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(400)
                .body("{\"error\":{\"message\":\"the proxy saw Authorization: Bearer " + jsonEscaped(OPENAI_KEY)
                        + " and refused it\",\"type\":\"invalid_request_error\",\"code\":null}}")
                .build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(harness.mock.requestsFor("gpt-4o-mini")).singleElement()
                .satisfies(sent -> assertThat(sent.header("authorization")).contains("Bearer " + OPENAI_KEY));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).contains("the proxy saw Authorization: Bearer [redacted] and refused it")
                .doesNotContain(jsonEscaped(OPENAI_KEY)).doesNotContain("conf");
    }

    @Test
    void anErrorEventInsideAStreamThatEchoesTheKeyPercentEncodedIsRelayedWithoutIt() {
        harness = openAiWithKey();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(OPENAI_CHUNK
                + "data: {\"error\":{\"message\":\"the proxy refused /v1/chat/completions?api_key=" + percentEncoded(OPENAI_KEY)
                + "\",\"type\":\"server_error\",\"code\":null}}\n\n").build());

        StreamReply stream = harness.client.stream("/v1/chat/completions", openAiRequest("gpt-4o-mini", true), Map.of());

        assertThat(stream.status()).isEqualTo(200);
        assertThat(stream.data()).contains("Hi").contains("the proxy refused /v1/chat/completions?api_key=[redacted]")
                .doesNotContain(percentEncoded(OPENAI_KEY)).doesNotContain("conf");
    }

    @Test
    void aBedrockSessionTokenEchoedEscapedAndEncodedIsNeverReadBack() {
        String sessionToken = "IQoJb3JpZ2luX2Vj/EXAMPLE+session/TOKEN+0123456789==";
        harness = GatewayHarness.startWithAwsSessionKeys(sessionToken);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("claude-on-bedrock", false)).status())
                .isEqualTo(200); // the mock takes the token: the gateway sent it
        harness.mock.scriptForModel("anthropic.claude-sonnet-4-20250514-v1:0", MockStep.builder().status(400)
                .header("x-echo-request", "/model?X-Amz-Security-Token=" + percentEncoded(sessionToken))
                .body("{\"message\":\"The security token " + jsonEscaped(sessionToken) + " is malformed\"}").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-on-bedrock", false));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).contains("[redacted]").doesNotContain(jsonEscaped(sessionToken)).doesNotContain("EXAMPLE");
        assertThat(reply.header("x-echo-request")).isEqualTo("/model?X-Amz-Security-Token=[redacted]");
    }
}
