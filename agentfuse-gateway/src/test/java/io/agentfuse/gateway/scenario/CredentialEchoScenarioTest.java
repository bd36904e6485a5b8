package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider, or a broken proxy in front of it, that echoes what the gateway sent it never hands a
 * caller the gateway's credentials (docs/design.md §12): not in an error event inside a stream that
 * began, not as the AWS session token of temporary Bedrock keys, not as a value of the provider's
 * configured {@code headers:}. Each stands as {@code [redacted]}.
 */
class CredentialEchoScenarioTest {

    private static final String OPENAI_KEY = "sk-oai-configured";
    private static final String ANTHROPIC_KEY = "sk-ant-configured";
    private static final String OPENAI_CHUNK = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
            + "\"finish_reason\":null}]}\n\n";

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private static String openAiErrorEvent(String echoed) {
        return "data: {\"error\":{\"message\":\"the proxy saw Authorization: Bearer " + echoed
                + "\",\"type\":\"server_error\",\"code\":null}}\n\n";
    }

    @Test
    void anOpenAiErrorEventInsideAStreamIsRelayedWithoutTheKey() {
        harness = GatewayHarness.start();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(OPENAI_CHUNK + openAiErrorEvent(OPENAI_KEY)).build());

        StreamReply stream = harness.client.stream("/v1/chat/completions", openAiRequest("gpt-4o-mini", true), Map.of());

        assertThat(stream.status()).isEqualTo(200);
        assertThat(stream.data()).contains("Hi").contains("the proxy saw Authorization: Bearer [redacted]")
                .doesNotContain(OPENAI_KEY);
    }

    @Test
    void anOpenAiErrorEventSaidAgainInAnthropicsWordsQuotesNoKeyEither() {
        harness = GatewayHarness.start();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(OPENAI_CHUNK + openAiErrorEvent(OPENAI_KEY)).build());

        StreamReply stream = harness.client.stream("/v1/messages", anthropicRequest("gpt-4o-mini", true), Map.of());

        assertThat(stream.events()).anySatisfy(event -> assertThat(event.event()).isEqualTo("error"));
        assertThat(stream.data()).contains("[redacted]").doesNotContain(OPENAI_KEY);
    }

    @Test
    void anAnthropicErrorEventInsideAStreamIsRelayedWithoutTheKey() {
        harness = GatewayHarness.start();
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().body("""
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}

                event: error
                data: {"type":"error","error":{"type":"overloaded_error","message":"x-api-key %s is overloaded"}}

                """.formatted(ANTHROPIC_KEY)).build());

        StreamReply stream = harness.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        assertThat(stream.data()).contains("Hi").contains("x-api-key [redacted] is overloaded").doesNotContain(ANTHROPIC_KEY);
    }

    @Test
    void aBrokenEventThatOpensTheStreamIsQuotedWithoutTheKey() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai }"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder()
                .body("data: <html>the proxy refused Authorization: Bearer " + OPENAI_KEY + "</html>\n\n").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", true));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.body()).contains("Bearer [redacted]").doesNotContain(OPENAI_KEY);
    }

    @Test
    void aValueOfTheProvidersConfiguredHeadersIsNeverEchoedBack() {
        String proxyKey = "proxy-key-0123456789";
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("apiKey: \"sk-oai-configured\" }",
                "apiKey: \"sk-oai-configured\", headers: { x-proxy-key: \"" + proxyKey + "\" } }"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(400).header("x-echo-proxy-key", proxyKey)
                .body("{\"error\":{\"message\":\"x-proxy-key " + proxyKey + " is not allowed\",\"type\":\"invalid_request_error\"}}")
                .build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(harness.mock.requestsFor("gpt-4o-mini")).singleElement()
                .satisfies(sent -> assertThat(sent.header("x-proxy-key")).contains(proxyKey));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).contains("x-proxy-key [redacted] is not allowed").doesNotContain(proxyKey);
        assertThat(reply.header("x-echo-proxy-key")).isEqualTo("[redacted]");
    }

    @Test
    void theSessionTokenOfTemporaryAwsKeysIsNeverEchoedBack() {
        String sessionToken = "IQoJb3JpZ2luX2VjEXAMPLEsessionTOKEN0123456789";
        harness = GatewayHarness.startWithAwsSessionKeys(sessionToken);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("claude-on-bedrock", false)).status())
                .isEqualTo(200); // the mock takes the token: the gateway sent it
        harness.mock.scriptForModel("anthropic.claude-sonnet-4-20250514-v1:0", MockStep.builder().status(400)
                .header("x-echo-security-token", sessionToken)
                .body("{\"message\":\"The security token " + sessionToken + " is malformed\"}").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-on-bedrock", false));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).contains("[redacted]").doesNotContain(sessionToken);
        assertThat(reply.header("x-echo-security-token")).isEqualTo("[redacted]");
    }
}
