package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 3.6 MB screenshot in a turn whose primary fails reaches the fallback of the other dialect byte
 * for byte, in each direction: an Anthropic caller's base64 as OpenAI's data URL, an OpenAI caller's
 * data URL as Anthropic's base64 source, an Anthropic caller's base64 as Gemini's {@code inlineData}.
 * (The image is held in the form it came in, and turned into the other only for the provider that
 * needs it.) Real HTTP to the mock, which refuses what the real APIs refuse.
 */
class LargeMediaCrossingScenarioTest {

    /** The base64 of a 1 280 × 800 PNG of 3.6 MB: its head, then bytes that do not compress. */
    private static final String SCREENSHOT = screenshot();
    private static final String SCREENSHOT_URL = "data:image/png;base64," + SCREENSHOT;

    private static final String CONFIG = """
            server: { port: 0, maxBodySize: 8MB }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry: { maxAttempts: 1 }
            models:
              claude: { provider: anthropic, upstreamModel: claude-sonnet-4-5, fallbacks: [gpt] }
              claude-then-gemini: { provider: anthropic, upstreamModel: claude-sonnet-4-5, fallbacks: [gemini] }
              gpt: { provider: openai, upstreamModel: gpt-4.1 }
              gpt-then-claude: { provider: openai, upstreamModel: gpt-4o, fallbacks: [haiku] }
              haiku: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
              gemini: { provider: gemini, upstreamModel: gemini-2.5-pro }
            """;

    private GatewayHarness harness;

    private static String screenshot() {
        ByteBuffer png = ByteBuffer.allocate(3_600_000);
        png.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'})
                .putInt(1280).putInt(800);
        byte[] rest = new byte[png.remaining()];
        new Random(11).nextBytes(rest);
        return Base64.getEncoder().encodeToString(png.put(rest).array());
    }

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build());
        harness.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    private Reply post(String path, JsonObject body, Map<String, String> headers) {
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("content-type", "application/json");
        return harness.client.send(HttpMethod.POST, path, Buffer.buffer(body.encode()), all);
    }

    private static JsonObject anthropicTurn(String model) {
        JsonObject image = new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                .put("media_type", "image/png").put("data", SCREENSHOT));
        return new JsonObject().put("model", model).put("max_tokens", 64).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(image)
                        .add(new JsonObject().put("type", "text").put("text", "What does the screen say?")))));
    }

    private JsonObject firstPart(String upstreamModel, String messagesField, String partsField) {
        return harness.mock.requestsFor(upstreamModel).get(0).jsonBody().orElseThrow().getJsonArray(messagesField)
                .getJsonObject(0).getJsonArray(partsField).getJsonObject(0);
    }

    @Test
    void anAnthropicCallersScreenshotReachesGptAsItsDataUrlByteForByte() {
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("A login form.").build());

        Reply reply = post("/v1/messages", anthropicTurn("claude"), Map.of("anthropic-version", "2023-06-01"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        String url = firstPart("gpt-4.1", "messages", "content").getJsonObject("image_url").getString("url");
        assertThat(url.equals(SCREENSHOT_URL)).as("the data URL GPT got (%d chars) is the screenshot's", url.length()).isTrue();
    }

    @Test
    void anOpenAiCallersScreenshotReachesClaudeAsItsBase64ByteForByte() {
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("A login form.").build());
        JsonObject turn = new JsonObject().put("model", "gpt-then-claude").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "image_url").put("image_url", new JsonObject().put("url", SCREENSHOT_URL)))
                        .add(new JsonObject().put("type", "text").put("text", "What does the screen say?")))));

        Reply reply = post("/v1/chat/completions", turn, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("haiku");
        JsonObject source = firstPart("claude-haiku-4-5", "messages", "content").getJsonObject("source");
        assertThat(source.getString("type")).isEqualTo("base64");
        assertThat(source.getString("media_type")).isEqualTo("image/png");
        assertThat(source.getString("data").equals(SCREENSHOT)).as("the base64 Claude got is the screenshot's").isTrue();
    }

    @Test
    void anAnthropicCallersScreenshotReachesGeminiAsItsBase64ByteForByte() {
        harness.mock.scriptForModel("gemini-2.5-pro", MockStep.builder().text("A login form.").build());

        Reply reply = post("/v1/messages", anthropicTurn("claude-then-gemini"), Map.of("anthropic-version", "2023-06-01"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gemini");
        JsonObject inline = firstPart("gemini-2.5-pro", "contents", "parts").getJsonObject("inlineData");
        assertThat(inline.getString("mimeType")).isEqualTo("image/png");
        assertThat(inline.getString("data").equals(SCREENSHOT)).as("the base64 Gemini got is the screenshot's").isTrue();
    }
}
