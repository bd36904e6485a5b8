package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request the context ladder compacts (Claude's summarised by the default compact model, the
 * others snipped), sent to a provider of the caller's own dialect: the turns it
 * keeps reach the provider as the caller sent them — cache marks, an image's {@code detail}, a file
 * named or not, thinking and reasoning, parts no other dialect takes — for each caller dialect.
 * Real HTTP to the mock; windows small enough that a long conversation is compacted.
 */
class SameDialectLadderScenarioTest {

    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    private static final String PNG_URL = "data:image/png;base64," + PNG;
    private static final String PDF = "JVBERi0xLjcKJeLjz9MK";
    private static final String PDF_URL = "data:application/pdf;base64," + PDF;
    /** Turns of filler that put each conversation beyond its model's window, so that it is compacted. */
    private static final int TURNS = 99;

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry:
              maxAttempts: 1
            models:
              claude: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 16000 }
              gpt: { provider: openai, upstreamModel: gpt-4.1, contextWindow: 8000 }
              gemini: { provider: gemini, upstreamModel: gemini-2.5-pro, contextWindow: 8000 }
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

    private static JsonObject ephemeral() {
        return new JsonObject().put("type", "ephemeral");
    }

    /** Turns of user and model talk, the first and the last the user's. */
    private static JsonArray talk(String userRole, String modelRole, boolean geminiParts) {
        JsonArray turns = new JsonArray();
        for (int i = 0; i < TURNS; i++) {
            String text = "Step " + i + ": " + LadderConversations.words(60);
            String role = i % 2 == 0 ? userRole : modelRole;
            turns.add(geminiParts ? new JsonObject().put("role", role).put("parts", new JsonArray().add(new JsonObject().put("text", text)))
                    : new JsonObject().put("role", role).put("content", text));
        }
        return turns;
    }

    private static JsonArray last(JsonArray array, int count) {
        return new JsonArray(array.getList().subList(array.size() - count, array.size()));
    }

    private static void assertCompacted(Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-compaction")).startsWith("action=");
    }

    private JsonObject sentTo(String upstreamModel) {
        return LadderConversations.lastSentTo(harness.mock, upstreamModel);
    }

    @Test
    void claudeCodesThinkingReadAndCacheMarksReachClaudeAsSentAfterCompaction() {
        JsonArray kept = new JsonArray()
                .add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "thinking").put("thinking", "Read it.").put("signature", "sig-1"))
                        .add(new JsonObject().put("type", "tool_use").put("id", "toolu_1").put("name", "Read").put("input", new JsonObject()))))
                .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_1").put("cache_control", ephemeral())
                                .put("content", new JsonArray()
                                        .add(new JsonObject().put("type", "image").put("cache_control", ephemeral()).put("source",
                                                new JsonObject().put("type", "base64").put("media_type", "image/png").put("data", PNG)))
                                        .add(new JsonObject().put("type", "text").put("text", "page 1"))
                                        .add(new JsonObject().put("type", "document").put("title", "spec").put("cache_control", ephemeral())
                                                .put("source", new JsonObject().put("type", "base64").put("media_type", "application/pdf")
                                                        .put("data", PDF)))))
                        .add(new JsonObject().put("type", "text").put("text", "Describe.").put("cache_control", ephemeral()))));
        JsonArray messages = talk("user", "assistant", false).addAll(kept);

        Reply reply = harness.client.post("/v1/messages", new JsonObject().put("model", "claude").put("max_tokens", 100)
                .put("messages", messages));

        assertCompacted(reply);
        assertThat(last(sentTo("claude-sonnet-4-5").getJsonArray("messages"), 2)).isEqualTo(kept);
    }

    @Test
    void aChatCompletionsTurnsImageDetailFilesAndAudioReachGptAsSentAfterCompaction() {
        JsonObject kept = new JsonObject().put("role", "user").put("content", new JsonArray()
                .add(new JsonObject().put("type", "text").put("text", "Compare."))
                .add(new JsonObject().put("type", "image_url").put("image_url", new JsonObject().put("url", PNG_URL).put("detail", "low")))
                .add(new JsonObject().put("type", "file").put("file", new JsonObject().put("file_data", PDF_URL)))
                .add(new JsonObject().put("type", "file").put("file", new JsonObject().put("file_id", "file-abc")))
                .add(new JsonObject().put("type", "input_audio").put("input_audio", new JsonObject().put("data", "UklGRg==").put("format", "wav"))));
        JsonArray messages = talk("user", "assistant", false).add(kept);

        Reply reply = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "gpt").put("messages", messages));

        assertCompacted(reply);
        assertThat(last(sentTo("gpt-4.1").getJsonArray("messages"), 1)).containsExactly(kept);
    }

    /**
     * Regression: the legacy functions API's {@code role: "function"} message and the assistant's
     * {@code function_call} before it were dropped by a compacted request, and a {@code developer}
     * message in the middle of the conversation was moved into the leading system message.
     */
    @Test
    void aChatCompletionsLegacyFunctionTurnAndAMidConversationDeveloperMessageReachGptAsSentAfterCompaction() {
        JsonObject system = new JsonObject().put("role", "system").put("content", "You are terse.");
        JsonArray kept = new JsonArray()
                .add(new JsonObject().put("role", "assistant").putNull("content").put("function_call",
                        new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":\"Paris\"}")))
                .add(new JsonObject().put("role", "function").put("name", "get_weather").put("content", "18 C, clear"))
                .add(new JsonObject().put("role", "developer").put("content", "Answer in French from now on."))
                .add(new JsonObject().put("role", "user").put("content", "And tomorrow?"));
        JsonArray messages = new JsonArray().add(system).addAll(talk("user", "assistant", false)).addAll(kept);

        Reply reply = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "gpt").put("messages", messages));

        assertCompacted(reply);
        JsonArray sent = sentTo("gpt-4.1").getJsonArray("messages");
        assertThat(last(sent, 4)).isEqualTo(kept);
        assertThat(sent.getJsonObject(0)).isEqualTo(system);
        assertThat(sent.encode()).containsOnlyOnce("Answer in French");
    }

    @Test
    void codexsReasoningViewedImageAndStoredFileReachTheResponsesApiAsSentAfterCompaction() {
        JsonArray kept = new JsonArray()
                .add(new JsonObject().put("type", "reasoning").put("id", "rs_1").put("encrypted_content", "opaque-reasoning")
                        .put("summary", new JsonArray()))
                .add(new JsonObject().put("type", "function_call").put("id", "fc_1").put("call_id", "call_1").put("name", "view_image")
                        .put("arguments", "{}"))
                .add(new JsonObject().put("type", "function_call_output").put("call_id", "call_1").put("output", new JsonArray()
                        .add(new JsonObject().put("type", "input_image").put("image_url", PNG_URL).put("detail", "high"))))
                .add(new JsonObject().put("type", "message").put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "input_text").put("text", "And this file?"))
                        .add(new JsonObject().put("type", "input_file").put("file_id", "file-abc"))
                        .add(new JsonObject().put("type", "input_file").put("file_data", PDF_URL))));
        JsonArray input = talk("user", "assistant", false).addAll(kept);

        Reply reply = harness.client.post("/v1/responses", new JsonObject().put("model", "gpt").put("input", input));

        assertCompacted(reply);
        assertThat(last(sentTo("gpt-4.1").getJsonArray("input"), 4)).isEqualTo(kept);
    }

    @Test
    void geminiClisSignedCallAndTheAudioItReadReachGeminiAsSentAfterCompaction() {
        JsonArray kept = new JsonArray()
                .add(new JsonObject().put("role", "model").put("parts", new JsonArray().add(new JsonObject()
                        .put("functionCall", new JsonObject().put("name", "read_file").put("args", new JsonObject()))
                        .put("thoughtSignature", "c2lnbmF0dXJl"))))
                .add(new JsonObject().put("role", "user").put("parts", new JsonArray()
                        .add(new JsonObject().put("functionResponse", new JsonObject().put("name", "read_file")
                                .put("response", new JsonObject().put("output", "read"))
                                .put("parts", new JsonArray().add(new JsonObject().put("inlineData",
                                        new JsonObject().put("mimeType", "image/png").put("data", PNG))))))
                        .add(new JsonObject().put("inlineData", new JsonObject().put("mimeType", "audio/wav").put("data", "UklGRg==")))
                        .add(new JsonObject().put("text", "Transcribe it."))));
        JsonArray contents = talk("user", "model", true).addAll(kept);

        Reply reply = harness.client.post("/v1beta/models/gemini:generateContent", new JsonObject().put("contents", contents));

        assertCompacted(reply);
        assertThat(last(sentTo("gemini-2.5-pro").getJsonArray("contents"), 2)).isEqualTo(kept);
    }
}
