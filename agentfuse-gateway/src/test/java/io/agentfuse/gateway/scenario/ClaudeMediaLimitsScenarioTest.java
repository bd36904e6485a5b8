package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.TestPdf;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Anthropic's limits on the images and document pages of a request, by the model's window: 100
 * together for a model of a 200 000-token window, 600 for a larger one, a PDF counted by its pages
 * and none of more than 100 pages. A request crossing into Anthropic's dialect that a Claude step
 * cannot take skips that step for the next model of the chain instead of ending it on Anthropic's
 * 400; one it can take reaches it (more than 100 images to a model of a 200 000-token window:
 * {@link AnthropicMediaScenarioTest}). Over real HTTP, to a mock that refuses what Anthropic refuses,
 * with Anthropic's messages.
 */
class ClaudeMediaLimitsScenarioTest {

    /** A 1×1 PNG. */
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry:
              maxAttempts: 1
            models:
              claude: { provider: anthropic, upstreamModel: claude-sonnet-4-5, fallbacks: [gpt] }
              claude-large: { provider: anthropic, upstreamModel: claude-sonnet-4-6, contextWindow: 1000000, fallbacks: [gpt] }
              gpt: { provider: openai, upstreamModel: gpt-4.1 }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("Seen.").build());
        harness.mock.scriptForModel("claude-sonnet-4-6", MockStep.builder().text("Seen.").build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("Seen.").build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    /** A Chat Completions turn for {@code model} of {@code images} images, then a PDF if given, and a question. */
    private static JsonObject chat(String model, int images, byte[] pdf) {
        JsonArray content = new JsonArray();
        for (int i = 0; i < images; i++) {
            content.add(new JsonObject().put("type", "image_url")
                    .put("image_url", new JsonObject().put("url", "data:image/png;base64," + PNG)));
        }
        if (pdf != null) {
            content.add(new JsonObject().put("type", "file").put("file", new JsonObject()
                    .put("filename", "report.pdf").put("file_data", TestPdf.dataUrl(pdf))));
        }
        content.add(new JsonObject().put("type", "text").put("text", "What do they show?"));
        return new JsonObject().put("model", model)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", content)));
    }

    /** A Messages turn for {@code upstreamModel} of {@code images} images, then a PDF if given, and a question. */
    private static JsonObject messages(String model, int images, byte[] pdf) {
        JsonArray content = new JsonArray();
        for (int i = 0; i < images; i++) {
            content.add(new JsonObject().put("type", "image").put("source", new JsonObject()
                    .put("type", "base64").put("media_type", "image/png").put("data", PNG)));
        }
        if (pdf != null) {
            content.add(new JsonObject().put("type", "document").put("source", new JsonObject()
                    .put("type", "base64").put("media_type", "application/pdf").put("data", TestPdf.base64(pdf))));
        }
        content.add(new JsonObject().put("type", "text").put("text", "What do they show?"));
        return new JsonObject().put("model", model).put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", content)));
    }

    private void assertFellBackToGpt(Reply reply, String skipped, String upstreamModel) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo(skipped + "=untranslatable");
        assertThat(harness.mock.requestsFor(upstreamModel)).isEmpty();
    }

    @Test
    void aPdfOfMoreThanAHundredPagesSkipsTheClaudeStepForTheFallback() {
        Reply reply = harness.client.post("/v1/chat/completions", chat("claude", 0, TestPdf.withObjectStream(101)), Map.of());

        assertFellBackToGpt(reply, "claude", "claude-sonnet-4-5");
    }

    @Test
    void aPdfOfMoreThanAHundredPagesSkipsEvenAModelOfALargeWindow() {
        Reply reply = harness.client.post("/v1/chat/completions", chat("claude-large", 0, TestPdf.uncompressed(101)), Map.of());

        assertFellBackToGpt(reply, "claude-large", "claude-sonnet-4-6");
    }

    @Test
    void aPdfsPagesCountWithTheImagesTowardTheRequestsLimit() {
        Reply over = harness.client.post("/v1/chat/completions", chat("claude", 41, TestPdf.uncompressed(60)), Map.of());
        assertFellBackToGpt(over, "claude", "claude-sonnet-4-5");

        Reply within = harness.client.post("/v1/chat/completions", chat("claude", 40, TestPdf.uncompressed(60)), Map.of());
        assertThat(within.status()).as(within.body()).isEqualTo(200);
        assertThat(within.header("x-agentfuse-model")).isEqualTo("claude");
    }

    @Test
    void aModelOfAMillionTokenWindowTakes150Images() {
        Reply reply = harness.client.post("/v1/chat/completions", chat("claude-large", 150, null), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-large");
        assertThat(harness.mock.requestsFor("claude-sonnet-4-6")).hasSize(1);
    }

    @Test
    void theMockRefusesAPdfOfMoreThanAHundredPagesAsAnthropicDoes() {
        // The caller's own dialect goes as it was sent: Anthropic's 400 is the caller's to read.
        Reply reply = harness.client.post("/v1/messages", messages("claude", 0, TestPdf.withObjectStream(101)), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .isEqualTo("messages.0.content.0.pdf.source.base64.data: A maximum of 100 PDF pages may be provided.");
    }

    @Test
    void theMockCountsAPdfsPagesTowardTheLimitAsAnthropicDoes() {
        Reply reply = harness.client.post("/v1/messages", messages("claude", 41, TestPdf.withObjectStream(60)), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .isEqualTo("Too much media: 60 document pages + 41 images > 100");
    }

    @Test
    void theMockTakesUpTo600ImagesForAModelOfAMillionTokenWindow() {
        Reply taken = harness.client.post("/v1/messages", messages("claude-large", 600, null), Map.of());
        assertThat(taken.status()).as(taken.body()).isEqualTo(200);

        Reply refused = harness.client.post("/v1/messages", messages("claude-large", 601, null), Map.of());
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().getJsonObject("error").getString("message"))
                .isEqualTo("Too much media: 0 document pages + 601 images > 600");
    }
}
