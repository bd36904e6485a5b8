package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A large request (a turn with a screenshot) that falls back to a provider of the other dialect, and
 * whose attempt there is retried, gets the same translated body on every attempt, byte for byte and
 * whole, in each direction. (The body is encoded once, at the step's first attempt, into pieces
 * written as one composite buffer, {@code JsonPieces}; a retry writes those same pieces again.) Real
 * HTTP to the mock, which refuses what the real APIs refuse.
 */
class LargeCrossingBodyScenarioTest {

    private static final String SCREENSHOT = "iVBORw0KGgo" + "q83+/Z0a".repeat(160 * 1024); // about 1.3 MB of base64

    private static final String CONFIG = """
            server: { port: 0, maxBodySize: 4MB }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry: { maxAttempts: 2, initialDelay: 20ms }
            models:
              claude: { provider: anthropic, upstreamModel: claude-sonnet-4-5, fallbacks: [gpt] }
              gpt: { provider: openai, upstreamModel: gpt-4.1 }
              gpt-then-claude: { provider: openai, upstreamModel: gpt-4o, fallbacks: [haiku] }
              haiku: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aClaudeCodeTurnRetriedOnItsOpenAiFallbackSendsTheSameBytesEachTime() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build(),
                MockStep.builder().status(500).build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().status(500).build());
        String body = "{\"model\": \"claude\", \"max_tokens\": 64, \"messages\": [{\"role\": \"user\", \"content\": ["
                + "{\"type\": \"image\", \"source\": {\"type\": \"base64\", \"media_type\": \"image/png\", \"data\": \""
                + SCREENSHOT + "\"}}, {\"type\": \"text\", \"text\": \"What does the screen say? h\\u00e9 \\ud83d\\ude00\"}]}]}";

        Reply reply = harness.client.send(HttpMethod.POST, "/v1/messages", Buffer.buffer(body),
                Map.of("content-type", "application/json", "anthropic-version", "2023-06-01"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        JsonObject part = sameOnEveryAttempt(harness.mock.requestsFor("gpt-4.1")).getJsonArray("messages")
                .getJsonObject(0).getJsonArray("content").getJsonObject(0);
        assertThat(part.getJsonObject("image_url").getString("url").equals("data:image/png;base64," + SCREENSHOT))
                .as("the screenshot's data URL").isTrue();
    }

    @Test
    void anOpenAiTurnRetriedOnItsAnthropicFallbackSendsTheSameBytesEachTime() {
        harness.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build(), MockStep.builder().status(500).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).build());
        String body = "{\"model\": \"gpt-then-claude\", \"messages\": [{\"role\": \"user\", \"content\": ["
                + "{\"type\": \"image_url\", \"image_url\": {\"url\": \"data:image/png;base64," + SCREENSHOT + "\"}},"
                + " {\"type\": \"text\", \"text\": \"What does the screen say? h\\u00e9 \\ud83d\\ude00\"}]}]}";

        Reply reply = harness.client.send(HttpMethod.POST, "/v1/chat/completions", Buffer.buffer(body),
                Map.of("content-type", "application/json"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("haiku");
        JsonObject source = sameOnEveryAttempt(harness.mock.requestsFor("claude-haiku-4-5")).getJsonArray("messages")
                .getJsonObject(0).getJsonArray("content").getJsonObject(0).getJsonObject("source");
        assertThat(source.getString("data").equals(SCREENSHOT)).as("the screenshot's base64").isTrue();
    }

    /** The body of the two attempts {@code sent}, which are the same bytes. */
    private static JsonObject sameOnEveryAttempt(List<RecordedRequest> sent) {
        assertThat(sent).as("the fallback, retried once").hasSize(2);
        String first = sent.get(0).body();
        String second = sent.get(1).body();
        assertThat(first.length()).as("a body of the screenshot's size").isGreaterThan(SCREENSHOT.length());
        assertThat(second.equals(first)).as("the retry's %d chars are the first attempt's %d", second.length(), first.length())
                .isTrue();
        return sent.get(0).jsonBody().orElseThrow();
    }
}
