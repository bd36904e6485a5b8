package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool calls and results of an agent's conversation, put through to Bedrock's Converse API, which
 * refuses a blank text block in a tool result as everywhere and tool blocks without a
 * {@code toolConfig}: an empty tool result (a shell command without output) and a request that
 * offers no tools but carries tool calls (an agent summing up its transcript) must still be requests
 * Bedrock takes — over real HTTP, to the Bedrock mock.
 */
class BedrockToolResultsTest {

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

    private static JsonObject conversation(Object toolOutput) {
        JsonObject result = new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_1").put("content", toolOutput);
        return new JsonObject().put("model", "claude-on-bedrock").put("max_tokens", 100)
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "Make the directory."))
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray().add(new JsonObject()
                                .put("type", "tool_use").put("id", "toolu_1").put("name", "Bash")
                                .put("input", new JsonObject().put("command", "mkdir build")))))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(result))));
    }

    @ParameterizedTest(name = "tool output {0}")
    @ValueSource(strings = {"", "\n", "[]"})
    void anAnthropicCallersEmptyToolResultIsAnsweredByBedrock(String output) {
        JsonObject request = conversation(output.equals("[]") ? new JsonArray() : output)
                .put("tools", new JsonArray().add(new JsonObject().put("name", "Bash")
                        .put("input_schema", new JsonObject().put("type", "object"))));

        Reply reply = harness.client.post("/v1/messages", request, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject sent = harness.mock.requests().get(0).jsonBody().orElseThrow();
        JsonObject toolResult = sent.getJsonArray("messages").getJsonObject(2).getJsonArray("content").getJsonObject(0)
                .getJsonObject("toolResult");
        assertThat(toolResult.getString("toolUseId")).isEqualTo("toolu_1");
        assertThat(toolResult.getJsonArray("content").getJsonObject(0).getString("text")).isNotBlank();
    }

    @Test
    void aRequestWithoutToolsWhoseConversationCallsToolsDeclaresThemToBedrock() {
        JsonObject request = conversation("created").put("messages", conversation("created").getJsonArray("messages")
                .add(new JsonObject().put("role", "assistant").put("content", "Done."))
                .add(new JsonObject().put("role", "user").put("content", "Sum up what you did.")));

        Reply reply = harness.client.post("/v1/messages", request, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject sent = harness.mock.requests().get(0).jsonBody().orElseThrow();
        assertThat(sent.getJsonObject("toolConfig").getJsonArray("tools").getJsonObject(0)
                .getJsonObject("toolSpec").getString("name")).isEqualTo("Bash");
    }
}
