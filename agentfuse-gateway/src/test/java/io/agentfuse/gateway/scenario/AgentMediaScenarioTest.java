package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tool that returns an image — Claude Code reading a PNG, a browser tool's screenshot, Codex's
 * {@code view_image} — or a PDF, in a conversation that crosses to another provider's dialect: the image
 * reaches the model in the place that dialect gives it (a user message after the tool messages for
 * Chat Completions, {@code functionResponse.parts} for Gemini, an {@code image} block of the
 * {@code toolResult} for Bedrock, an {@code image} block of the {@code tool_result} for Anthropic),
 * and the fallback from Claude to GPT that such a conversation needs is taken. Over real HTTP, to
 * mocks that refuse what the real APIs refuse (the OpenAI mock a tool message out of place or an
 * image outside a user message).
 */
class AgentMediaScenarioTest {

    /** A 1×1 PNG, as Claude Code's Read tool sends a picture it read. */
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    private static final String PNG_URL = "data:image/png;base64," + PNG;

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + GatewayHarness.BEDROCK_PROVIDER + """
            retry:
              maxAttempts: 1
            models:
              claude-sonnet: { provider: anthropic, upstreamModel: claude-sonnet-4-5, fallbacks: [gpt] }
              gpt: { provider: openai, upstreamModel: gpt-4.1 }
              gemini: { provider: gemini, upstreamModel: gemini-3-pro-preview }
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

    /**
     * Claude Code's turn after it read a screenshot and listed a directory: system blocks with cache
     * control, its tools, and a user turn of two tool results (the first an image alone, marked for
     * caching) followed by the user's words.
     */
    private static JsonObject claudeCodeTurn(String model, boolean stream) {
        JsonObject read = new JsonObject().put("type", "tool_use").put("id", "toolu_read").put("name", "Read")
                .put("input", new JsonObject().put("file_path", "/tmp/screenshot.png"));
        JsonObject list = new JsonObject().put("type", "tool_use").put("id", "toolu_ls").put("name", "Bash")
                .put("input", new JsonObject().put("command", "ls"));
        JsonObject image = new JsonObject().put("type", "image").put("source", new JsonObject()
                .put("type", "base64").put("media_type", "image/png").put("data", PNG));
        return new JsonObject().put("model", model).put("max_tokens", 32000).put("stream", stream)
                .put("system", new JsonArray().add(new JsonObject().put("type", "text")
                        .put("text", "You are Claude Code.").put("cache_control", new JsonObject().put("type", "ephemeral"))))
                .put("metadata", new JsonObject().put("user_id", "user_abc_session_1"))
                .put("tools", new JsonArray()
                        .add(tool("Read", "file_path"))
                        .add(tool("Bash", "command")))
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "What does the screenshot show?"))
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray().add(read).add(list)))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_read")
                                        .put("content", new JsonArray().add(image))
                                        .put("cache_control", new JsonObject().put("type", "ephemeral")))
                                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_ls")
                                        .put("content", "screenshot.png"))
                                .add(new JsonObject().put("type", "text").put("text", "Describe it.")))));
    }

    private static JsonObject tool(String name, String parameter) {
        return new JsonObject().put("name", name).put("input_schema", new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put(parameter, new JsonObject().put("type", "string"))));
    }

    private JsonObject sentTo(String upstreamModel) {
        return harness.mock.requestsFor(upstreamModel).get(0).jsonBody().orElseThrow();
    }

    @Test
    void claudeCodesScreenshotFallsBackFromAnOverloadedClaudeToGptWhichSeesTheImage() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(529).build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("A login form.").build());

        Reply reply = harness.client.post("/v1/messages", claudeCodeTurn("claude-sonnet", false), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.json().getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("A login form.");
        JsonArray messages = sentTo("gpt-4.1").getJsonArray("messages");
        assertThat(messages).extracting(message -> ((JsonObject) message).getString("role"))
                .containsExactly("system", "user", "assistant", "tool", "tool", "user");
        assertThat(messages.getJsonObject(3).getString("tool_call_id")).isEqualTo("toolu_read");
        assertThat(messages.getJsonObject(4).getString("content")).isEqualTo("screenshot.png");
        JsonArray after = messages.getJsonObject(5).getJsonArray("content");
        assertThat(after.getJsonObject(0).getString("text")).contains("toolu_read");
        assertThat(after.getJsonObject(1)).isEqualTo(new JsonObject().put("type", "image_url")
                .put("image_url", new JsonObject().put("url", PNG_URL)));
        assertThat(after.getJsonObject(2).getString("text")).isEqualTo("Describe it.");
    }

    @Test
    void aStreamedTurnWithAScreenshotIsAnsweredByGptAfterClaudeFails() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(529).build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().chunks("A login ", "form.").build());

        StreamReply reply = harness.client.stream("/v1/messages", claudeCodeTurn("claude-sonnet", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.cutOff()).as(reply.data()).isFalse();
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.data()).contains("A login ").contains("form.");
        assertThat(sentTo("gpt-4.1").encode()).contains(PNG_URL);
    }

    @Test
    void geminiGetsTheImageInsideTheFunctionResponse() {
        harness.mock.scriptForModel("gemini-3-pro-preview", MockStep.builder().text("A login form.").build());

        Reply reply = harness.client.post("/v1/messages", claudeCodeTurn("gemini", false), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonArray parts = sentTo("gemini-3-pro-preview").getJsonArray("contents").getJsonObject(2).getJsonArray("parts");
        JsonObject screenshot = parts.getJsonObject(0).getJsonObject("functionResponse");
        assertThat(screenshot.getString("name")).isEqualTo("Read");
        assertThat(screenshot.getJsonArray("parts")).containsExactly(new JsonObject().put("inlineData",
                new JsonObject().put("mimeType", "image/png").put("data", PNG)));
        assertThat(parts.getJsonObject(1).getJsonObject("functionResponse").containsKey("parts")).isFalse();
    }

    @Test
    void bedrockGetsTheImageAsAnImageBlockOfTheToolResult() {
        harness.mock.scriptForModel("anthropic.claude-sonnet-4-20250514-v1:0", MockStep.builder().text("A login form.").build());

        Reply reply = harness.client.post("/v1/messages", claudeCodeTurn("claude-on-bedrock", false), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject toolResult = sentTo("anthropic.claude-sonnet-4-20250514-v1:0").getJsonArray("messages").getJsonObject(2)
                .getJsonArray("content").getJsonObject(0).getJsonObject("toolResult");
        assertThat(toolResult.getString("toolUseId")).isEqualTo("toolu_read");
        assertThat(toolResult.getJsonArray("content")).containsExactly(new JsonObject().put("image", new JsonObject()
                .put("format", "png").put("source", new JsonObject().put("bytes", PNG))));
    }

    /** Claude Code's turn after it read a PDF of {@code bytes} bytes. */
    private static JsonObject claudeCodePdfTurn(String model, int bytes) {
        JsonObject read = new JsonObject().put("type", "tool_use").put("id", "toolu_pdf").put("name", "Read")
                .put("input", new JsonObject().put("file_path", "/tmp/spec.pdf"));
        JsonObject document = new JsonObject().put("type", "document").put("source", new JsonObject()
                .put("type", "base64").put("media_type", "application/pdf").put("data", "JVBERi0xLjcK" + "A".repeat(bytes / 3 * 4)));
        return new JsonObject().put("model", model).put("max_tokens", 32000)
                .put("tools", new JsonArray().add(tool("Read", "file_path")))
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "Summarise spec.pdf"))
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray().add(read)))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_pdf")
                                        .put("content", new JsonArray().add(document))))));
    }

    @Test
    void aMegabytePdfClaudeCodeReadIsNotTakenForAFullContextWindow() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("A spec.").build());

        Reply reply = harness.client.post("/v1/messages", claudeCodePdfTurn("claude-sonnet", 1_400_000), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(sentTo("claude-sonnet-4-5").encode()).contains("\"type\":\"document\"");
    }

    @Test
    void aPdfClaudeCodeReadFallsBackToGptAsAFile() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(529).build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("A spec.").build());

        Reply reply = harness.client.post("/v1/messages", claudeCodePdfTurn("claude-sonnet", 3_000), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        JsonArray messages = sentTo("gpt-4.1").getJsonArray("messages");
        assertThat(messages.getJsonObject(2).getString("role")).isEqualTo("tool");
        JsonObject file = messages.getJsonObject(3).getJsonArray("content").getJsonObject(1);
        assertThat(file.getString("type")).isEqualTo("file");
        assertThat(file.getJsonObject("file").getString("file_data")).startsWith("data:application/pdf;base64,JVBERi0xLjcK");
    }

    @Test
    void aTitledPdfReachesBedrockUnderANameConverseTakes() {
        harness.mock.scriptForModel("anthropic.claude-sonnet-4-20250514-v1:0", MockStep.builder().text("A spec.").build());
        JsonObject turn = claudeCodePdfTurn("claude-on-bedrock", 3_000);
        turn.getJsonArray("messages").getJsonObject(2).getJsonArray("content").getJsonObject(0).getJsonArray("content")
                .getJsonObject(0).put("title", "Q3 report — final_v2.pdf");

        Reply reply = harness.client.post("/v1/messages", turn, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject document = sentTo("anthropic.claude-sonnet-4-20250514-v1:0").getJsonArray("messages").getJsonObject(2)
                .getJsonArray("content").getJsonObject(0).getJsonObject("toolResult").getJsonArray("content")
                .getJsonObject(0).getJsonObject("document");
        assertThat(document.getString("format")).isEqualTo("pdf");
        assertThat(document.getString("name")).isEqualTo("Q3 report final v2 pdf");
    }

    @Test
    void codexsViewImageOutputReachesClaudeAsAnImageInTheToolResult() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("A login form.").build());
        JsonObject codexTurn = new JsonObject().put("model", "claude-sonnet").put("instructions", "You are Codex.")
                .put("input", new JsonArray()
                        .add(new JsonObject().put("type", "message").put("role", "user").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "input_text").put("text", "Look at shot.png"))))
                        .add(new JsonObject().put("type", "function_call").put("call_id", "call_1").put("name", "view_image")
                                .put("arguments", "{\"path\":\"shot.png\"}"))
                        .add(new JsonObject().put("type", "function_call_output").put("call_id", "call_1")
                                .put("output", new JsonArray()
                                        .add(new JsonObject().put("type", "input_text").put("text", "shot.png:"))
                                        .add(new JsonObject().put("type", "input_image").put("image_url", PNG_URL)))));

        Reply reply = harness.client.post("/v1/responses", codexTurn, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject toolResult = sentTo("claude-sonnet-4-5").getJsonArray("messages").getJsonObject(2)
                .getJsonArray("content").getJsonObject(0);
        assertThat(toolResult.getString("tool_use_id")).isEqualTo("call_1");
        assertThat(toolResult.getJsonArray("content")).containsExactly(
                new JsonObject().put("type", "text").put("text", "shot.png:"),
                new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                        .put("media_type", "image/png").put("data", PNG)));
    }
}
