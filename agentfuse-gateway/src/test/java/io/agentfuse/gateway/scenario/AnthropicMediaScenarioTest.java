package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * More images than the Messages API takes in a request (100, with document pages, for a model of a
 * 200 000-token window), or larger ones (8 000 pixels a side, 2 000 in a request of more than 20), met
 * before the call: a request crossing into Anthropic's dialect skips that
 * step for the next model of the chain instead of ending it on Anthropic's 400. Over real HTTP, to
 * a mock that refuses what Anthropic refuses, with Anthropic's message.
 */
class AnthropicMediaScenarioTest {

    /** A 1×1 PNG. */
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    /** A 2 001 × 1 PNG, a pixel wider than Anthropic takes in a request of more than 20 images. */
    private static final String WIDE_PNG = png(2_001, 1);
    /** Base64 of 5 MB and a group more: four characters past what Anthropic takes of an image. */
    private static final String OVER_5_MB = "A".repeat(5 * 1024 * 1024 + 4);

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry:
              maxAttempts: 1
            models:
              claude: { provider: anthropic, upstreamModel: claude-sonnet-4-5, fallbacks: [gpt] }
              gpt: { provider: openai, upstreamModel: gpt-4.1 }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("Seen.").build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("Seen.").build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    /** A Chat Completions turn of {@code count} images and a question. */
    private static JsonObject chatImages(int count) {
        return chatImages(count, PNG);
    }

    /** A Chat Completions turn of {@code count} images, the first {@code first}, and a question. */
    private static JsonObject chatImages(int count, String first) {
        JsonArray content = new JsonArray();
        for (int i = 0; i < count; i++) {
            content.add(new JsonObject().put("type", "image_url")
                    .put("image_url", new JsonObject().put("url", "data:image/png;base64," + (i == 0 ? first : PNG))));
        }
        content.add(new JsonObject().put("type", "text").put("text", "What changed between the frames?"));
        return new JsonObject().put("model", "claude")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", content)));
    }

    /** A Messages turn of {@code count} images and a question. */
    private static JsonObject messagesImages(int count) {
        return messagesImages(count, PNG);
    }

    /** A Messages turn of {@code count} images, the first {@code first}, and a question. */
    private static JsonObject messagesImages(int count, String first) {
        JsonArray content = new JsonArray();
        for (int i = 0; i < count; i++) {
            content.add(new JsonObject().put("type", "image").put("source", new JsonObject()
                    .put("type", "base64").put("media_type", "image/png").put("data", i == 0 ? first : PNG)));
        }
        content.add(new JsonObject().put("type", "text").put("text", "What changed between the frames?"));
        return new JsonObject().put("model", "claude").put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", content)));
    }

    @Test
    void moreImagesThanAnthropicTakesSkipItsStepForTheFallback() {
        Reply reply = harness.client.post("/v1/chat/completions", chatImages(101), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude=untranslatable");
        assertThat(harness.mock.requestsFor("claude-sonnet-4-5")).isEmpty();
    }

    @Test
    void asManyImagesAsAnthropicTakesReachIt() {
        Reply reply = harness.client.post("/v1/chat/completions", chatImages(100), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude");
    }

    @Test
    void theMockRefusesMoreImagesThanAnthropicTakesAsAnthropicDoes() {
        // The caller's own dialect goes as it was sent: Anthropic's 400 is the caller's to read.
        Reply reply = harness.client.post("/v1/messages", messagesImages(101), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request_error");
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .isEqualTo("Too much media: 0 document pages + 101 images > 100");
    }

    @Test
    void aWideImageAmongMoreThanTwentySkipsAnthropicsStepForTheFallback() {
        Reply reply = harness.client.post("/v1/chat/completions", chatImages(21, WIDE_PNG), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude=untranslatable");
        assertThat(harness.mock.requestsFor("claude-sonnet-4-5")).isEmpty();
    }

    @Test
    void anImageWiderThanAnthropicTakesAtAllSkipsItsStep() {
        Reply reply = harness.client.post("/v1/chat/completions", chatImages(1, png(8_001, 1)), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(harness.mock.requestsFor("claude-sonnet-4-5")).isEmpty();
    }

    @Test
    void aWideImageAmongTwentyReachesAnthropic() {
        Reply reply = harness.client.post("/v1/chat/completions", chatImages(20, WIDE_PNG), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude");
    }

    @Test
    void theMockRefusesAWideImageAmongManyAsAnthropicDoes() {
        Reply reply = harness.client.post("/v1/messages", messagesImages(21, WIDE_PNG), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message")).isEqualTo("messages.0.content.0.image.source"
                + ".base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels");
    }

    @Test
    void anImageOfMoreBase64ThanAnthropicTakesSkipsItsStep() {
        Reply reply = harness.client.post("/v1/chat/completions", chatImages(1, OVER_5_MB), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude=untranslatable");
        assertThat(harness.mock.requestsFor("claude-sonnet-4-5")).isEmpty();
    }

    @Test
    void theMockRefusesAnImageOfMoreThanFiveMegabytesOfBase64AsAnthropicDoes() {
        Reply reply = harness.client.post("/v1/messages", messagesImages(1, OVER_5_MB), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message")).isEqualTo("messages.0.content.0.image.source"
                + ".base64: image exceeds 5 MB maximum: 5242884 bytes > 5242880 bytes");
    }

    private static String png(int width, int height) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB), "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }
}
