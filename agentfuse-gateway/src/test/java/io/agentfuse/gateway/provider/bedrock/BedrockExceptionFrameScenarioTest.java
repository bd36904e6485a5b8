package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Bedrock ConverseStream that carries an exception frame without its {@code :exception-type}
 * header, over real HTTP from the mock: the provider answered an error it did not name, which counts
 * as a server error (as an unknown exception's name does) — fallen back from before the first byte,
 * the stream's failure after it — not as a broken connection.
 */
class BedrockExceptionFrameScenarioTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.BEDROCK_PROVIDER + """
            retry:
              maxAttempts: 1
            models:
              claude-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-v1:0", fallbacks: [haiku-on-bedrock] }
              haiku-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-haiku-4-v1:0" }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.startWithAwsKeys(CONFIG);
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void anUntypedExceptionBeforeTheAnswerBeganIsAServerErrorAndTheNextStepStreams() {
        harness.mock.scriptForModel("anthropic.claude-sonnet-4-v1:0", MockStep.builder()
                .body(event("messageStart", "{\"role\":\"assistant\"}").appendBuffer(untypedException())).build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-on-bedrock", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("haiku-on-bedrock");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-on-bedrock=SERVER_ERROR(HTTP 500)");
        assertThat(reply.cutOff()).isFalse();
        assertThat(harness.breaker("claude-on-bedrock").snapshot().counts()).containsEntry("consecutive5xx", 1L);
    }

    @Test
    void anUntypedExceptionAfterTheFirstByteEndsTheStreamAndCountsAsAServerError() {
        harness.mock.scriptForModel("anthropic.claude-sonnet-4-v1:0", MockStep.builder()
                .body(event("messageStart", "{\"role\":\"assistant\"}")
                        .appendBuffer(event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hel\"}}"))
                        .appendBuffer(untypedException())).build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-on-bedrock", true), Map.of());

        assertThat(reply.data()).contains("Hel");
        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(last.event()).isEqualTo("error");
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("message"))
                .contains(":exception-type", "The system encountered an unexpected error.");
        assertThat(reply.cutOff()).isTrue();
        assertThat(harness.breaker("claude-on-bedrock").snapshot().counts()).containsEntry("consecutive5xx", 1L);
    }

    private static Buffer event(String type, String payload) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString(type));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        return frame(headers, payload);
    }

    /** An exception frame as Bedrock frames one, but without the {@code :exception-type} that names it. */
    private static Buffer untypedException() {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("exception"));
        return frame(headers, "{\"message\":\"The system encountered an unexpected error.\"}");
    }

    private static Buffer frame(Map<String, HeaderValue> headers, String payload) {
        ByteBuffer bytes = new Message(headers, payload.getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        return Buffer.buffer(out);
    }
}
