package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.gemini.GeminiRequestParser;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Images and documents — a tool's or the user's — read from each caller dialect and written in each provider dialect. */
class MediaTranslationTest {

    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ";
    private static final String PNG_URL = "data:image/png;base64," + PNG;
    private static final String JPEG_URL = "data:image/jpeg;base64,/9j/4AAQSkZJRg==";

    private static ChatRequest anthropicTurn(JsonArray results) {
        JsonArray calls = new JsonArray();
        for (int i = 0; i < results.size(); i++) {
            calls.add(new JsonObject().put("type", "tool_use").put("id", results.getJsonObject(i).getString("tool_use_id"))
                    .put("name", "screenshot").put("input", new JsonObject()));
        }
        return Dialects.ANTHROPIC.parseRequest(new JsonObject().put("model", "claude-haiku-4").put("max_tokens", 100)
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "Compare the pages."))
                        .add(new JsonObject().put("role", "assistant").put("content", calls))
                        .add(new JsonObject().put("role", "user").put("content", results))));
    }

    private static JsonObject imageResult(String id, String mediaType, String data, boolean isError) {
        JsonObject image = new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                .put("media_type", mediaType).put("data", data));
        JsonObject result = new JsonObject().put("type", "tool_result").put("tool_use_id", id)
                .put("content", new JsonArray().add(image));
        return isError ? result.put("is_error", true) : result;
    }

    @Test
    void chatCompletionsGetsEachResultsImagesAfterTheLastToolMessageNamingTheirCall() {
        ChatRequest request = anthropicTurn(new JsonArray()
                .add(imageResult("toolu_1", "image/png", PNG, false))
                .add(imageResult("toolu_2", "image/jpeg", "/9j/4AAQSkZJRg==", false)));

        JsonArray messages = DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4.1").getJsonArray("messages");

        assertThat(messages).extracting(message -> ((JsonObject) message).getString("role"))
                .containsExactly("user", "assistant", "tool", "tool", "user");
        assertThat(messages.getJsonObject(2).getString("content")).isNotBlank();
        JsonArray images = messages.getJsonObject(4).getJsonArray("content");
        assertThat(images).hasSize(4);
        assertThat(images.getJsonObject(0).getString("text")).contains("toolu_1");
        assertThat(images.getJsonObject(1).getJsonObject("image_url").getString("url")).isEqualTo(PNG_URL);
        assertThat(images.getJsonObject(2).getString("text")).contains("toolu_2");
        assertThat(images.getJsonObject(3).getJsonObject("image_url").getString("url")).isEqualTo(JPEG_URL);
    }

    @Test
    void theResponsesApiGetsAFailedToolsTextAndImageAsTheOutputsParts() {
        JsonObject failed = imageResult("toolu_1", "image/png", PNG, true);
        failed.getJsonArray("content").add(0, new JsonObject().put("type", "text").put("text", "the page did not load"));

        JsonObject output = DialectTranslator.upstreamRequest(anthropicTurn(new JsonArray().add(failed)), Dialects.RESPONSES,
                "gpt-4.1").getJsonArray("input").stream().map(JsonObject.class::cast)
                .filter(item -> "function_call_output".equals(item.getString("type"))).findFirst().orElseThrow();

        assertThat(output.getJsonArray("output")).containsExactly(
                new JsonObject().put("type", "input_text").put("text", "Error: the page did not load"),
                new JsonObject().put("type", "input_image").put("image_url", PNG_URL));
    }

    @Test
    void aGeminiModelBeforeGemini3GetsAToolsImagesAfterTheTurnsFunctionResponses() {
        ChatRequest request = anthropicTurn(new JsonArray()
                .add(imageResult("toolu_1", "image/png", PNG, false))
                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_2").put("content", "done")));

        JsonArray older = DialectTranslator.upstreamRequest(request, Dialects.GEMINI, "gemini-2.5-pro")
                .getJsonArray("contents").getJsonObject(2).getJsonArray("parts");
        JsonArray current = DialectTranslator.upstreamRequest(request, Dialects.GEMINI, "gemini-3-pro-preview")
                .getJsonArray("contents").getJsonObject(2).getJsonArray("parts");

        JsonObject image = new JsonObject().put("inlineData", new JsonObject().put("mimeType", "image/png").put("data", PNG));
        assertThat(older).hasSize(3);
        assertThat(older.getJsonObject(0).getJsonObject("functionResponse").containsKey("parts")).isFalse();
        assertThat(older.getJsonObject(1).containsKey("functionResponse")).isTrue();
        assertThat(older.getJsonObject(2)).isEqualTo(image);
        assertThat(current).hasSize(2);
        assertThat(current.getJsonObject(0).getJsonObject("functionResponse").getJsonArray("parts")).containsExactly(image);
    }

    @Test
    void aGeminiCallersMultimodalFunctionResponseReachesClaudeAsAToolResultWithItsImage() {
        JsonObject gemini = new JsonObject().put("contents", new JsonArray()
                .add(new JsonObject().put("role", "user").put("parts", new JsonArray().add(new JsonObject().put("text", "Look."))))
                .add(new JsonObject().put("role", "model").put("parts", new JsonArray().add(new JsonObject()
                        .put("functionCall", new JsonObject().put("name", "screenshot").put("args", new JsonObject())))))
                .add(new JsonObject().put("role", "user").put("parts", new JsonArray().add(new JsonObject()
                        .put("functionResponse", new JsonObject().put("name", "screenshot")
                                .put("response", new JsonObject().put("output", "taken"))
                                .put("parts", new JsonArray().add(new JsonObject().put("inlineData",
                                        new JsonObject().put("mimeType", "image/png").put("data", PNG)))))))));
        ChatRequest request = GeminiRequestParser.parse(gemini, "gemini-3-pro", false);

        JsonObject result = DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5")
                .getJsonArray("messages").getJsonObject(2).getJsonArray("content").getJsonObject(0);

        assertThat(result.getString("type")).isEqualTo("tool_result");
        assertThat(result.getJsonArray("content")).containsExactly(
                new JsonObject().put("type", "text").put("text", "taken"),
                new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                        .put("media_type", "image/png").put("data", PNG)));
    }

    private static final String PDF = "JVBERi0xLjQK";
    private static final String PDF_URL = "data:application/pdf;base64," + PDF;

    private static JsonObject pdf(String title) {
        JsonObject document = new JsonObject().put("type", "document").put("source", new JsonObject().put("type", "base64")
                .put("media_type", "application/pdf").put("data", PDF));
        return title == null ? document : document.put("title", title);
    }

    private static ChatRequest anthropicPdfRead() {
        return anthropicTurn(new JsonArray().add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_1")
                .put("content", new JsonArray().add(pdf("spec.pdf")))));
    }

    @Test
    void aPdfClaudeCodeReadReachesChatCompletionsAsAFileAfterTheToolMessage() {
        JsonArray messages = DialectTranslator.upstreamRequest(anthropicPdfRead(), Dialects.OPENAI, "gpt-4.1")
                .getJsonArray("messages");

        assertThat(messages).extracting(message -> ((JsonObject) message).getString("role"))
                .containsExactly("user", "assistant", "tool", "user");
        assertThat(messages.getJsonObject(3).getJsonArray("content").getJsonObject(1)).isEqualTo(new JsonObject()
                .put("type", "file").put("file", new JsonObject().put("filename", "spec.pdf").put("file_data", PDF_URL)));
    }

    @Test
    void aPdfReachesBedrockAsADocumentBlockNamedByItsTitleAsConverseAllows() {
        JsonObject toolResult = DialectTranslator.upstreamRequest(anthropicPdfRead(), Dialects.BEDROCK,
                        "anthropic.claude-sonnet-4-20250514-v1:0").getJsonArray("messages").getJsonObject(2)
                .getJsonArray("content").getJsonObject(0).getJsonObject("toolResult");

        assertThat(toolResult.getJsonArray("content")).containsExactly(new JsonObject().put("document", new JsonObject()
                .put("format", "pdf").put("name", "spec pdf").put("source", new JsonObject().put("bytes", PDF))));
    }

    @Test
    void aPdfReachesGeminiAsInlineDataAndTheResponsesApiAsAnInputFile() {
        ChatRequest userPdf = Dialects.ANTHROPIC.parseRequest(new JsonObject().put("model", "claude-haiku-4").put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(pdf(null)).add(new JsonObject().put("type", "text").put("text", "Summarise."))))));

        JsonObject gemini = DialectTranslator.upstreamRequest(userPdf, Dialects.GEMINI, "gemini-2.5-pro");
        JsonObject responses = DialectTranslator.upstreamRequest(userPdf, Dialects.RESPONSES, "gpt-4.1");

        assertThat(gemini.getJsonArray("contents").getJsonObject(0).getJsonArray("parts").getJsonObject(0)).isEqualTo(
                new JsonObject().put("inlineData", new JsonObject().put("mimeType", "application/pdf").put("data", PDF)));
        assertThat(responses.getJsonArray("input").getJsonObject(0).getJsonArray("content").getJsonObject(0)).isEqualTo(
                new JsonObject().put("type", "input_file").put("filename", "document.pdf").put("file_data", PDF_URL));
    }

    @Test
    void anOpenAiCallersFilePartReachesClaudeAsADocument() {
        ChatRequest request = Dialects.OPENAI.parseRequest(new JsonObject().put("model", "gpt-4.1").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "file").put("file", new JsonObject()
                                .put("filename", "spec.pdf").put("file_data", PDF_URL)))))));

        JsonObject sent = DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5");

        assertThat(sent.getJsonArray("messages").getJsonObject(0).getJsonArray("content").getJsonObject(0))
                .isEqualTo(pdf("spec.pdf"));
    }

    @Test
    void aDocumentThatAsksForCitationsStillKeepsTheTurnFromOtherDialectsAndSaysWhy() {
        ChatRequest request = anthropicTurn(new JsonArray().add(new JsonObject().put("type", "tool_result")
                .put("tool_use_id", "toolu_1").put("content", new JsonArray()
                        .add(pdf(null).put("citations", new JsonObject().put("enabled", true))))));

        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4.1"))
                .isInstanceOf(UntranslatableException.class).hasMessageContaining("content[0].citations of a document");
        ContentPart.ToolResult result = (ContentPart.ToolResult) request.messages().get(2).content().get(0);
        assertThatThrownBy(result::media).isInstanceOf(UntranslatableException.class);
    }

    @Test
    void aDocumentByUrlIsUntranslatableWhereOnlyDataIsTaken() {
        ChatRequest request = anthropicTurn(new JsonArray().add(new JsonObject().put("type", "tool_result")
                .put("tool_use_id", "toolu_1").put("content", new JsonArray().add(new JsonObject().put("type", "document")
                        .put("source", new JsonObject().put("type", "url").put("url", "https://example.com/spec.pdf"))))));

        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4.1"))
                .isInstanceOf(UntranslatableException.class).hasMessageContaining("a document by URL");
        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(request, Dialects.BEDROCK, "anthropic.claude-sonnet-4-20250514-v1:0"))
                .isInstanceOf(UntranslatableException.class).hasMessageContaining("a document by URL");
        assertThat(DialectTranslator.upstreamRequest(request, Dialects.RESPONSES, "gpt-4.1").encode())
                .contains("\"file_url\":\"https://example.com/spec.pdf\"");
    }

    @Test
    void aToolResultAttachesImagesDocumentsAndOpaqueBlocksOnly() {
        assertThatThrownBy(() -> new ContentPart.ToolResult("t1", "", false, List.of(new ContentPart.Text("no"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Text");
        assertThat(new ContentPart.ToolResult("t1", "", false, List.of(new ContentPart.Image(PNG_URL),
                new ContentPart.Document(PDF_URL, null))).media()).hasSize(2);
    }
}
