package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.provider.bedrock.BedrockRequestSigner;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockCredentials;
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
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One image or document larger than Converse takes (the API reference's {@code Message}: an image of at
 * most 3.75 MB and 8000 pixels a side, a document of at most 4.5 MB; a PDF to Claude 4 or later exempt
 * from the document's size) is met before the call: the Bedrock step is untranslatable and the chain
 * falls back, instead of ending on Bedrock's 400. The mock refuses what Converse refuses.
 */
class BedrockMediaSizeScenarioTest {

    private static final String BEDROCK_MODEL = "anthropic.claude-sonnet-4-20250514-v1:0";
    private static final String OLDER_CLAUDE = "anthropic.claude-3-5-sonnet-20241022-v2:0";
    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
            """ + GatewayHarness.BEDROCK_PROVIDER + """
            retry:
              maxAttempts: 1
            models:
              claude-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0", fallbacks: [gpt] }
              gpt: { provider: openai, upstreamModel: gpt-4.1 }
            """;
    /** 3.75 MiB and one byte: one byte more than Converse takes of an image. */
    private static final int IMAGE_TOO_LARGE = 3_932_161;
    /** 4.5 MiB and one byte: one byte more than Converse takes of a document. */
    private static final int DOCUMENT_TOO_LARGE = 4_718_593;

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.startWithAwsKeys(CONFIG);
        harness.mock.scriptForModel(BEDROCK_MODEL, MockStep.builder().text("Seen.").build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("Seen.").build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void anImageOfMoreThan375MegabytesSkipsBedrockForTheFallback() {
        Reply reply = ask(new JsonObject().put("type", "image").put("source", base64("image/png", new byte[IMAGE_TOO_LARGE])));

        assertFellBack(reply);
    }

    @Test
    void anImageWiderThan8000PixelsSkipsBedrockForTheFallback() throws IOException {
        Reply reply = ask(new JsonObject().put("type", "image").put("source", base64("image/png", png(8_001, 1))));

        assertFellBack(reply);
    }

    @Test
    void aDocumentOfMoreThan45MegabytesSkipsBedrockButAPdfOfThatSizeReachesClaude4() {
        Reply text = ask(new JsonObject().put("type", "document").put("title", "log")
                .put("source", base64("text/plain", "x".repeat(DOCUMENT_TOO_LARGE).getBytes(StandardCharsets.US_ASCII))));

        // Chat Completions reads no text document either: the chain has no model left, and Bedrock was not called.
        assertThat(text.status()).as(text.body()).isEqualTo(400);
        assertThat(text.body()).contains("claude-on-bedrock skipped (cannot translate: a document of 4718593 bytes");
        assertThat(harness.mock.requestsFor(BEDROCK_MODEL)).isEmpty();

        byte[] pdf = new byte[DOCUMENT_TOO_LARGE];
        System.arraycopy("%PDF-1.7\n".getBytes(StandardCharsets.US_ASCII), 0, pdf, 0, 9);
        Reply book = ask(new JsonObject().put("type", "document").put("title", "book").put("source", base64("application/pdf", pdf)));

        assertThat(book.status()).as(book.body()).isEqualTo(200);
        assertThat(book.header("x-agentfuse-model")).as("Claude 4 takes a PDF of any size").isEqualTo("claude-on-bedrock");
    }

    @Test
    void theMockRefusesWhatConverseRefusesWithBedrocksMessages() throws Exception {
        byte[] text = "x".repeat(DOCUMENT_TOO_LARGE).getBytes(StandardCharsets.US_ASCII);
        JsonObject document = new JsonObject().put("document", new JsonObject().put("format", "txt").put("name", "log")
                .put("source", new JsonObject().put("bytes", Base64.getEncoder().encodeToString(text))));
        JsonObject bigImage = image(new byte[IMAGE_TOO_LARGE]);
        JsonObject wideImage = image(png(8_001, 1));

        assertThat(converse(BEDROCK_MODEL, document)).isEqualTo(400);
        assertThat(lastRefusal).contains("The maximum document size is 4.5 MB. Reduce the size of your document and retry your request.");
        assertThat(converse(BEDROCK_MODEL, bigImage)).isEqualTo(400);
        assertThat(lastRefusal).contains("The maximum image size is 3.75 MB.");
        assertThat(converse(BEDROCK_MODEL, wideImage)).isEqualTo(400);
        assertThat(lastRefusal).contains("8000 x 8000 pixels");
        byte[] pdf = new byte[DOCUMENT_TOO_LARGE];
        JsonObject largePdf = new JsonObject().put("document", new JsonObject().put("format", "pdf").put("name", "book")
                .put("source", new JsonObject().put("bytes", Base64.getEncoder().encodeToString(pdf))));
        assertThat(converse(OLDER_CLAUDE, largePdf)).as("Claude 3.5 is held to 4.5 MB").isEqualTo(400);
        harness.mock.scriptForModel(BEDROCK_MODEL, MockStep.builder().text("Read.").build());
        assertThat(converse(BEDROCK_MODEL, largePdf)).as("Claude 4 takes a PDF of any size").isEqualTo(200);
    }

    private String lastRefusal;

    private int converse(String model, JsonObject block) throws Exception {
        String path = "/model/" + URLEncoder.encode(model, StandardCharsets.UTF_8) + "/converse";
        byte[] body = new JsonObject().put("messages", new JsonArray().add(new JsonObject().put("role", "user")
                .put("content", new JsonArray().add(block).add(new JsonObject().put("text", "Look."))))).encode().getBytes();
        Map<String, String> headers = new HashMap<>(Map.of("content-type", "application/json"));
        BedrockRequestSigner signer = BedrockRequestSigner.staticKeys("us-east-1", MockCredentials.AWS_ACCESS_KEY_ID,
                MockCredentials.AWS_SECRET_ACCESS_KEY, null);
        URI uri = URI.create(harness.mock.anthropicBaseUrl() + path);
        headers.putAll(signer.sign("POST", uri, headers, body).get(30, TimeUnit.SECONDS));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach((name, value) -> {
            if (!name.equalsIgnoreCase("host")) {
                request.header(name, value);
            }
        });
        HttpResponse<String> answer = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        lastRefusal = answer.body();
        return answer.statusCode();
    }

    private static JsonObject image(byte[] data) {
        return new JsonObject().put("image", new JsonObject().put("format", "png")
                .put("source", new JsonObject().put("bytes", Base64.getEncoder().encodeToString(data))));
    }

    private Reply ask(JsonObject block) {
        return harness.client.post("/v1/messages", new JsonObject().put("model", "claude-on-bedrock").put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(block).add(new JsonObject().put("type", "text").put("text", "What is in it?"))))), Map.of());
    }

    private void assertFellBack(Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-on-bedrock=untranslatable");
        assertThat(harness.mock.requestsFor(BEDROCK_MODEL)).isEmpty();
    }

    private static JsonObject base64(String mediaType, byte[] data) {
        return new JsonObject().put("type", "base64").put("media_type", mediaType)
                .put("data", Base64.getEncoder().encodeToString(data));
    }

    private static byte[] png(int width, int height) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB), "png", out);
        return out.toByteArray();
    }
}
