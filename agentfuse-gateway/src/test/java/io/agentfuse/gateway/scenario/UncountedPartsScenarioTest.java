package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parts of a request that counted nothing, so that a conversation of them alone passed the context
 * ladder (and the token budgets, which count the same) as if it were empty: a Responses
 * {@code input_audio} part, a Gemini video part, the audio of a Gemini {@code functionResponse}, a
 * Gemini code-execution part, a Responses custom tool's items, and a legacy Chat Completions
 * {@code role: "function"} message. Each is now counted (media as its provider charges it, a
 * screenshot by its pixels, the rest as its JSON text), and the request still goes as it came
 * within its own dialect.
 */
class UncountedPartsScenarioTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry:
              maxAttempts: 1
            models:
              gemini: { provider: gemini, upstreamModel: gemini-2.5-flash, contextWindow: 2000 }
              gpt-audio: { provider: openai, upstreamModel: gpt-4o-audio-preview, contextWindow: 2000 }
              gpt-big: { provider: openai, upstreamModel: gpt-4o, contextWindow: 1000000 }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("gemini-2.5-flash", MockStep.builder().text("Heard it.").build());
        harness.mock.scriptForModel("gpt-4o-audio-preview", MockStep.builder().text("Heard it.").build());
        harness.mock.scriptForModel("gpt-4o", MockStep.builder().text("Done.").build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    /** A minute of 8 kHz 8-bit mono WAV: 480 000 bytes of samples after a 44-byte header (1 920 tokens). */
    static String minuteOfWav() {
        int samples = 480_000;
        ByteBuffer wav = ByteBuffer.allocate(44 + samples).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes()).putInt(36 + samples).put("WAVE".getBytes()).put("fmt ".getBytes()).putInt(16)
                .putShort((short) 1).putShort((short) 1).putInt(8_000).putInt(8_000).putShort((short) 1).putShort((short) 8)
                .put("data".getBytes()).putInt(samples);
        return Base64.getEncoder().encodeToString(wav.array());
    }

    @Test
    void responsesInputAudioThatFillsTheWindowIsRefusedBeforeTheCall() {
        JsonObject audio = new JsonObject().put("type", "input_audio")
                .put("input_audio", new JsonObject().put("data", minuteOfWav()).put("format", "wav"));
        JsonObject body = new JsonObject().put("model", "gpt-audio").put("input", new JsonArray().add(new JsonObject()
                .put("role", "user").put("content", new JsonArray().add(audio)
                        .add(new JsonObject().put("type", "input_text").put("text", "Transcribe this.")))));

        Reply reply = harness.client.post("/v1/responses", body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requestsFor("gpt-4o-audio-preview")).isEmpty();
    }

    @Test
    void geminiVideoIsCountedByItsSecondsAsGeminiCharges() {
        // 624 999 bytes of MP4, taken at 500 kbit/s: 10 seconds, 2 630 tokens.
        String mp4 = Base64.getEncoder().encodeToString(new byte[624_999]);
        JsonObject body = geminiUser(new JsonObject().put("inlineData",
                new JsonObject().put("mimeType", "video/mp4").put("data", mp4)));

        Reply reply = harness.client.post("/v1beta/models/gemini:countTokens", body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getInteger("totalTokens")).isBetween(2_630, 2_630 + 20);
    }

    @Test
    void aYouTubeLinkIsCountedAsAMinuteOfVideo() {
        JsonObject body = geminiUser(new JsonObject().put("fileData",
                new JsonObject().put("fileUri", "https://www.youtube.com/watch?v=9hE5-98ZeCg")));

        Reply reply = harness.client.post("/v1beta/models/gemini:countTokens", body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getInteger("totalTokens")).isBetween(60 * 263, 60 * 263 + 20);
    }

    @Test
    void audioInAGeminiFunctionResponseIsCountedAsGeminiCharges() {
        JsonObject call = new JsonObject().put("functionCall", new JsonObject().put("name", "record")
                .put("args", new JsonObject()));
        JsonObject response = new JsonObject().put("functionResponse", new JsonObject().put("name", "record")
                .put("response", new JsonObject().put("output", "recorded"))
                .put("parts", new JsonArray().add(new JsonObject().put("inlineData",
                        new JsonObject().put("mimeType", "audio/wav").put("data", minuteOfWav())))));
        JsonObject body = new JsonObject().put("contents", new JsonArray()
                .add(new JsonObject().put("role", "user").put("parts", new JsonArray().add(new JsonObject().put("text", "Record."))))
                .add(new JsonObject().put("role", "model").put("parts", new JsonArray().add(call)))
                .add(new JsonObject().put("role", "user").put("parts", new JsonArray().add(response))));

        Reply reply = harness.client.post("/v1beta/models/gemini:countTokens", body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getInteger("totalTokens")).isBetween(1_920, 1_920 + 60);
    }

    @Test
    void aLegacyFunctionMessageThatFillsTheWindowIsRefusedBeforeTheCall() {
        JsonObject body = new JsonObject().put("model", "gpt-audio").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "What is in the log?"))
                .add(new JsonObject().put("role", "assistant").putNull("content").put("function_call",
                        new JsonObject().put("name", "read_log").put("arguments", "{}")))
                .add(new JsonObject().put("role", "function").put("name", "read_log")
                        .put("content", LadderConversations.words(3_000))));

        Reply reply = harness.client.post("/v1/chat/completions", body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requestsFor("gpt-4o-audio-preview")).isEmpty();
    }

    @Test
    void aLegacyFunctionMessageStillGoesAsItCameWithinItsDialect() {
        JsonArray messages = new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "What is in the log?"))
                .add(new JsonObject().put("role", "assistant").putNull("content").put("function_call",
                        new JsonObject().put("name", "read_log").put("arguments", "{}")))
                .add(new JsonObject().put("role", "function").put("name", "read_log").put("content", "all quiet"));

        Reply reply = harness.client.post("/v1/chat/completions",
                new JsonObject().put("model", "gpt-big").put("messages", messages));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(harness.mock.requestsFor("gpt-4o").get(0).jsonBody().orElseThrow().getJsonArray("messages")).isEqualTo(messages);
    }

    @Test
    void geminiPartsTheGatewayDoesNotModelAreCountedAsTheirJsonText() {
        String output = LadderConversations.words(3_000);
        JsonObject code = new JsonObject().put("executableCode", new JsonObject().put("language", "PYTHON")
                .put("code", "print(open('log').read())"));
        JsonObject result = new JsonObject().put("codeExecutionResult", new JsonObject().put("outcome", "OUTCOME_OK")
                .put("output", output));
        JsonObject body = new JsonObject().put("contents", new JsonArray()
                .add(new JsonObject().put("role", "user").put("parts", new JsonArray().add(new JsonObject().put("text", "Read the log."))))
                .add(new JsonObject().put("role", "model").put("parts", new JsonArray().add(code).add(result))));

        Reply reply = harness.client.post("/v1beta/models/gemini:countTokens", body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getInteger("totalTokens")).isGreaterThan(3_000);
    }

    @Test
    void responsesItemsTheGatewayDoesNotModelAreCountedAsTheirJsonText() {
        JsonArray input = new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Patch the log reader."))
                .add(new JsonObject().put("type", "custom_tool_call").put("call_id", "call_1").put("name", "apply_patch")
                        .put("input", "*** Begin Patch"))
                .add(new JsonObject().put("type", "custom_tool_call_output").put("call_id", "call_1")
                        .put("output", LadderConversations.words(3_000)));

        Reply reply = harness.client.post("/v1/responses", new JsonObject().put("model", "gpt-audio").put("input", input));

        assertThat(reply.status()).as(reply.body()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requestsFor("gpt-4o-audio-preview")).isEmpty();
    }

    @Test
    void responsesItemsTheGatewayDoesNotModelStillGoAsTheyCame() {
        JsonArray input = new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Patch the log reader."))
                .add(new JsonObject().put("type", "custom_tool_call").put("call_id", "call_1").put("name", "apply_patch")
                        .put("input", "*** Begin Patch"))
                .add(new JsonObject().put("type", "custom_tool_call_output").put("call_id", "call_1").put("output", "Done."));

        Reply reply = harness.client.post("/v1/responses", new JsonObject().put("model", "gpt-big").put("input", input));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(harness.mock.requestsFor("gpt-4o").get(0).jsonBody().orElseThrow().getJsonArray("input")).isEqualTo(input);
    }

    @Test
    void aComputerUseScreenshotCountsByItsPixelsNotItsBase64() {
        // 1024 × 768 (765 tokens at OpenAI's tiles) in 300 KB of PNG: as the text of its base64, over 100 000.
        ByteBuffer png = ByteBuffer.allocate(300_000).put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'})
                .putInt(13).put("IHDR".getBytes()).putInt(1024).putInt(768).put(new byte[] {8, 2, 0, 0, 0});
        String screenshot = "data:image/png;base64," + Base64.getEncoder().encodeToString(png.array());
        JsonArray input = new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Open the settings."))
                .add(new JsonObject().put("type", "computer_call").put("call_id", "call_1").put("action",
                        new JsonObject().put("type", "screenshot")))
                .add(new JsonObject().put("type", "computer_call_output").put("call_id", "call_1").put("output",
                        new JsonObject().put("type", "computer_screenshot").put("image_url", screenshot)));

        Reply reply = harness.client.post("/v1/responses", new JsonObject().put("model", "gpt-audio").put("input", input));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(harness.mock.requestsFor("gpt-4o-audio-preview").get(0).jsonBody().orElseThrow().getJsonArray("input"))
                .isEqualTo(input);
    }

    private static JsonObject geminiUser(JsonObject part) {
        return new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                .put("parts", new JsonArray().add(part).add(new JsonObject().put("text", "What happens here?")))));
    }
}
