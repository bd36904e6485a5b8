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
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Audio only its own dialect takes — a Gemini {@code inlineData} part of {@code audio/wav}, an OpenAI
 * {@code input_audio} part — counted nothing: a minute of speech went to a model whose window it
 * filled, and {@code :countTokens} left it out. It counts 32 tokens a second (Gemini's published
 * rate), its seconds read from a WAV header or guessed from the size of the data.
 */
class AudioCountScenarioTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry:
              maxAttempts: 1
            models:
              gemini: { provider: gemini, upstreamModel: gemini-2.5-flash, contextWindow: 2000 }
              gpt-audio: { provider: openai, upstreamModel: gpt-4o-audio-preview, contextWindow: 2000 }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("gemini-2.5-flash", MockStep.builder().text("Heard it.").build());
        harness.mock.scriptForModel("gpt-4o-audio-preview", MockStep.builder().text("Heard it.").build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    /** A minute of 8 kHz 8-bit mono WAV: 480 000 bytes of samples after a 44-byte header. */
    private static String minuteOfWav() {
        int samples = 480_000;
        ByteBuffer wav = ByteBuffer.allocate(44 + samples).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes()).putInt(36 + samples).put("WAVE".getBytes()).put("fmt ".getBytes()).putInt(16)
                .putShort((short) 1).putShort((short) 1).putInt(8_000).putInt(8_000).putShort((short) 1).putShort((short) 8)
                .put("data".getBytes()).putInt(samples);
        return Base64.getEncoder().encodeToString(wav.array());
    }

    private static JsonObject geminiAudio() {
        return new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user").put("parts",
                new JsonArray().add(new JsonObject().put("inlineData", new JsonObject().put("mimeType", "audio/wav")
                                .put("data", minuteOfWav())))
                        .add(new JsonObject().put("text", "Transcribe this.")))));
    }

    @Test
    void countTokensCountsAMinuteOfAudioAsGeminiCharges() {
        Reply reply = harness.client.post("/v1beta/models/gemini:countTokens", geminiAudio());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getInteger("totalTokens")).isBetween(1_920, 1_920 + 20); // and the words and framing
    }

    @Test
    void aMinuteOfAudioThatFillsTheWindowIsRefusedBeforeTheCall() {
        Reply reply = harness.client.post("/v1beta/models/gemini:generateContent", geminiAudio());

        assertThat(reply.status()).as(reply.body()).isEqualTo(413);
        assertThat(harness.mock.requestsFor("gemini-2.5-flash")).isEmpty();
    }

    @Test
    void openAiInputAudioIsCountedByItsGuessedSeconds() {
        // 240 000 bytes of MP3 taken at 32 kbit/s: 60 seconds, 1 920 tokens, over 95 % of the window.
        String mp3 = Base64.getEncoder().encodeToString(new byte[240_000]);
        JsonObject body = new JsonObject().put("model", "gpt-audio").put("messages", new JsonArray().add(new JsonObject()
                .put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "input_audio")
                                .put("input_audio", new JsonObject().put("data", mp3).put("format", "mp3")))
                        .add(new JsonObject().put("type", "text").put("text", "Transcribe this.")))));

        Reply reply = harness.client.post("/v1/chat/completions", body, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requestsFor("gpt-4o-audio-preview")).isEmpty();
    }
}
