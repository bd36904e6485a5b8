package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bedrock's Converse names neither its answer nor its model; translated for an OpenAI or Anthropic
 * caller, over real HTTP from the Bedrock mock, the answer gets an id (one per stream, on every chunk,
 * a new one for each answer) and the model the caller asked for.
 */
class BedrockAnswerNamesTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.BEDROCK_PROVIDER + """
            models:
              claude-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0" }
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
    void everyChunkOfAStreamForAnOpenAiCallerCarriesOneGeneratedIdAndTheModelAskedFor() {
        List<JsonObject> first = openAiChunks();
        List<JsonObject> second = openAiChunks();

        assertThat(first).hasSizeGreaterThan(2).allSatisfy(chunk -> {
            assertThat(chunk.getString("id")).isNotBlank().isEqualTo(first.get(0).getString("id"));
            assertThat(chunk.getString("model")).isEqualTo("claude-on-bedrock");
        });
        assertThat(second.get(0).getString("id")).isNotEqualTo(first.get(0).getString("id"));
    }

    @Test
    void aStreamForAnAnthropicCallerStartsWithAMessageIdAndTheModelAskedFor() {
        GatewayClient.StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-on-bedrock", true), Map.of());

        JsonObject message = new JsonObject(reply.events().stream().filter(event -> "message_start".equals(event.event()))
                .findFirst().orElseThrow().data()).getJsonObject("message");
        assertThat(message.getString("id")).isNotBlank();
        assertThat(message.getString("model")).isEqualTo("claude-on-bedrock");
    }

    @Test
    void aCompleteAnswerForAnOpenAiCallerHasAnIdAndTheModelAskedFor() {
        JsonObject answer = harness.client.post("/v1/chat/completions", openAiRequest("claude-on-bedrock", false)).json();

        assertThat(answer.getString("id")).isNotBlank();
        assertThat(answer.getString("model")).isEqualTo("claude-on-bedrock");
    }

    private List<JsonObject> openAiChunks() {
        GatewayClient.StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("claude-on-bedrock", true), Map.of());
        assertThat(reply.status()).isEqualTo(200);
        return reply.events().stream().map(SseEvent::data).filter(data -> data.startsWith("{")).map(JsonObject::new).toList();
    }
}
