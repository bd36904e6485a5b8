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
 * A hundred small icons (64 × 64 PNGs, an agent reading an icon set) in one request, on a
 * 100 000-token window. Counted at the ceiling over every provider's accounting, 1 120 tokens each
 * (Gemini 3's fixed charge), they overflowed the window and the request was refused 413; Claude
 * charges about 9 tokens for each. The context ladder counts a step's images as its model's family
 * charges them, and the ceiling only for a model whose family it does not know. Over real HTTP, to
 * the Anthropic mock, which refuses more images than Anthropic takes in a request (100).
 */
class ImageAccountingScenarioTest {

    private static final int ICONS = 100;

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry:
              maxAttempts: 1
            models:
              claude: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 100000 }
              house: { provider: anthropic, upstreamModel: house-vision-1, contextWindow: 100000 }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("A set of icons.").build());
        harness.mock.scriptForModel("house-vision-1", MockStep.builder().text("A set of icons.").build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    private static JsonObject icons(String model) {
        String icon = png(64, 64);
        JsonArray content = new JsonArray();
        for (int i = 0; i < ICONS; i++) {
            content.add(new JsonObject().put("type", "image").put("source", new JsonObject()
                    .put("type", "base64").put("media_type", "image/png").put("data", icon)));
        }
        content.add(new JsonObject().put("type", "text").put("text", "Name each icon."));
        return new JsonObject().put("model", model).put("max_tokens", 1000)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", content)));
    }

    @Test
    void iconsToAClaudeModelAreCountedAsClaudeChargesThemAndForwardedUntouched() {
        Reply reply = harness.client.post("/v1/messages", icons("claude"), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("NORMAL");
        JsonArray sent = harness.mock.requestsFor("claude-sonnet-4-5").get(0).jsonBody().orElseThrow()
                .getJsonArray("messages").getJsonObject(0).getJsonArray("content");
        assertThat(sent).hasSize(ICONS + 1);
        assertThat(sent.getJsonObject(0)).isEqualTo(icons("claude").getJsonArray("messages").getJsonObject(0)
                .getJsonArray("content").getJsonObject(0));
    }

    @Test
    void theSameIconsToAModelOfNoKnownFamilyAreStillCountedAtTheCeiling() {
        Reply reply = harness.client.post("/v1/messages", icons("house"), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        String message = reply.json().getJsonObject("error").getString("message");
        long needed = Long.parseLong(message.replaceAll(".*needs (\\d+) tokens.*", "$1"));
        assertThat(needed).as(message).isBetween(ICONS * 1_120L, ICONS * 1_120L + 20); // and a few of framing and text
        assertThat(harness.mock.requestsFor("house-vision-1")).isEmpty();
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
