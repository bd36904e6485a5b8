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
 * What Converse refuses in a request's images and documents, met before the call: documents that
 * would share a name, more documents or images than it takes, and for a Claude model what Anthropic
 * refuses (a PDF of more than 100 pages, more images and pages than the model's window takes). Claude Code's tool results, crossing
 * to Bedrock over real HTTP, to a mock that refuses what Converse refuses.
 */
class BedrockMediaScenarioTest {

    private static final String BEDROCK_MODEL = "anthropic.claude-sonnet-4-20250514-v1:0";
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    private static final String PDF = "JVBERi0xLjcKJeLjz9MK";

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

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.startWithAwsKeys(CONFIG);
        harness.mock.scriptForModel(BEDROCK_MODEL, MockStep.builder().text("Read them.").build());
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("Read them.").build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    /** Claude Code's turn after one Read returned {@code returned}. */
    private static JsonObject readReturned(JsonArray returned) {
        return new JsonObject().put("model", "claude-on-bedrock").put("max_tokens", 1000)
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "Read the reports."))
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray().add(new JsonObject()
                                .put("type", "tool_use").put("id", "toolu_1").put("name", "Read").put("input", new JsonObject()))))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(new JsonObject()
                                .put("type", "tool_result").put("tool_use_id", "toolu_1").put("content", returned)))));
    }

    private static JsonObject pdf(String title, String data) {
        JsonObject document = new JsonObject().put("type", "document").put("source", new JsonObject()
                .put("type", "base64").put("media_type", "application/pdf").put("data", data));
        return title == null ? document : document.put("title", title);
    }

    private static JsonObject png() {
        return new JsonObject().put("type", "image").put("source", new JsonObject()
                .put("type", "base64").put("media_type", "image/png").put("data", PNG));
    }

    private JsonArray namesSentToBedrock() {
        JsonArray content = harness.mock.requestsFor(BEDROCK_MODEL).get(0).jsonBody().orElseThrow().getJsonArray("messages")
                .getJsonObject(2).getJsonArray("content").getJsonObject(0).getJsonObject("toolResult").getJsonArray("content");
        JsonArray names = new JsonArray();
        content.forEach(block -> names.add(((JsonObject) block).getJsonObject("document").getString("name")));
        return names;
    }

    @Test
    void twoPdfsOfOneTitleReachBedrockUnderNamesOfTheirOwn() {
        Reply reply = harness.client.post("/v1/messages", readReturned(new JsonArray()
                .add(pdf("report.pdf", PDF)).add(pdf("Report.pdf", PDF + "AAAA")).add(pdf("report pdf", PDF + "BBBB"))), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-on-bedrock");
        assertThat(namesSentToBedrock()).containsExactly("report pdf", "Report pdf (2)", "report pdf (3)");
    }

    @Test
    void theSameUntitledPdfReadTwiceReachesBedrockUnderTwoNames() {
        Reply reply = harness.client.post("/v1/messages", readReturned(new JsonArray().add(pdf(null, PDF)).add(pdf(null, PDF))), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonArray names = namesSentToBedrock();
        assertThat(names.getString(1)).isEqualTo(names.getString(0) + " (2)");
    }

    @Test
    void moreImagesThanConverseTakesSkipBedrockForTheFallback() {
        JsonArray screenshots = new JsonArray();
        for (int i = 0; i < 21; i++) {
            screenshots.add(png());
        }

        Reply reply = harness.client.post("/v1/messages", readReturned(screenshots), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-on-bedrock=untranslatable");
        assertThat(harness.mock.requestsFor(BEDROCK_MODEL)).isEmpty();
    }

    @Test
    void moreDocumentsThanConverseTakesSkipBedrockForTheFallback() {
        JsonArray pdfs = new JsonArray();
        for (int i = 0; i < 6; i++) {
            pdfs.add(pdf("part " + i, PDF));
        }

        Reply reply = harness.client.post("/v1/messages", readReturned(pdfs), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(harness.mock.requestsFor(BEDROCK_MODEL)).isEmpty();
    }

    @Test
    void asManyImagesAndDocumentsAsConverseTakesReachBedrock() {
        JsonArray returned = new JsonArray();
        for (int i = 0; i < 20; i++) {
            returned.add(png());
        }
        for (int i = 0; i < 5; i++) {
            returned.add(pdf("part " + i, PDF));
        }

        Reply reply = harness.client.post("/v1/messages", readReturned(returned), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-on-bedrock");
    }

    @Test
    void aPdfOfMoreThanAHundredPagesSkipsClaudeOnBedrockForTheFallback() {
        JsonArray returned = new JsonArray().add(pdf("book", TestPdf.base64(TestPdf.withObjectStream(101))));

        Reply reply = harness.client.post("/v1/messages", readReturned(returned), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-on-bedrock=untranslatable");
        assertThat(harness.mock.requestsFor(BEDROCK_MODEL)).isEmpty();
    }

    @Test
    void moreImagesAndPagesThanClaudeTakesSkipClaudeOnBedrockForTheFallback() {
        // Within Converse's 20 images and 5 documents, beyond the 100 images and pages of Claude's 200k window.
        JsonArray returned = new JsonArray();
        for (int i = 0; i < 20; i++) {
            returned.add(png());
        }
        returned.add(pdf("part 1", TestPdf.base64(TestPdf.uncompressed(41)))).add(pdf("part 2", TestPdf.base64(TestPdf.uncompressed(40))));

        Reply reply = harness.client.post("/v1/messages", readReturned(returned), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt");
        assertThat(harness.mock.requestsFor(BEDROCK_MODEL)).isEmpty();
    }
}
