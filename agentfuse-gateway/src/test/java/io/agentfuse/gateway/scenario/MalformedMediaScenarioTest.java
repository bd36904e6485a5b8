package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Images and files a sloppy client gets wrong, in each caller dialect: a data URL without its comma
 * or its data, a media type that breaks the data URL it goes into, a file or image part naming no
 * source. Each is refused 400 {@code invalid_request} naming the field, before any provider is
 * called, whatever model it was for; what is well formed but only its own dialect takes (a data URL
 * that is not base64) skips other dialects' steps naming the field; base64 broken into lines crosses
 * without its line breaks. Real HTTP to the mock.
 */
class MalformedMediaScenarioTest {

    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry:
              maxAttempts: 1
            models:
              claude: { provider: anthropic, upstreamModel: claude-sonnet-4-5 }
              gpt: { provider: openai, upstreamModel: gpt-4.1 }
              gemini: { provider: gemini, upstreamModel: gemini-2.5-pro }
            """;

    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    private static JsonObject image(String mediaType, String data) {
        return new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                .put("media_type", mediaType).put("data", data));
    }

    private static JsonObject claudeCodeTurn(JsonObject block) {
        return new JsonObject().put("model", "claude").put("max_tokens", 100).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(block)
                        .add(new JsonObject().put("type", "text").put("text", "What is it?")))));
    }

    private static JsonObject chatTurn(String model, JsonObject part) {
        return new JsonObject().put("model", model).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "text").put("text", "What is it?")).add(part))));
    }

    private static JsonObject codexTurn(JsonObject part) {
        return new JsonObject().put("model", "gpt").put("input", new JsonArray()
                .add(new JsonObject().put("type", "message").put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "input_text").put("text", "What is it?")).add(part))));
    }

    private static JsonObject codexToolOutput(JsonObject part) {
        return new JsonObject().put("model", "gpt").put("input", new JsonArray()
                .add(new JsonObject().put("type", "message").put("role", "user").put("content", "Look."))
                .add(new JsonObject().put("type", "function_call").put("call_id", "call_1").put("name", "view_image")
                        .put("arguments", "{}"))
                .add(new JsonObject().put("type", "function_call_output").put("call_id", "call_1")
                        .put("output", new JsonArray().add(part))));
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("/v1/messages", claudeCodeTurn(image("image/png", "")),
                        "messages[0].content[0].source.data holds no data"),
                Arguments.of("/v1/messages", claudeCodeTurn(image("image/png,x", PNG)),
                        "messages[0].content[0].source.media_type must be a media type of the form type/subtype"),
                Arguments.of("/v1/messages", claudeCodeTurn(new JsonObject().put("type", "image").put("source",
                                new JsonObject().put("type", "url").put("url", "data:image/png;base64"))),
                        "messages[0].content[0].source.url is a data URL without a comma"),
                Arguments.of("/v1/chat/completions", chatTurn("gpt", new JsonObject().put("type", "image_url")
                                .put("image_url", new JsonObject().put("url", "data:image/png;base64"))),
                        "messages[0].content[1].image_url.url is a data URL without a comma"),
                Arguments.of("/v1/chat/completions", chatTurn("gpt", new JsonObject().put("type", "file")
                                .put("file", new JsonObject().put("file_data", "data:application/pdf;base64,"))),
                        "messages[0].content[1].file.file_data holds no data"),
                Arguments.of("/v1/chat/completions", chatTurn("gpt", new JsonObject().put("type", "file")
                                .put("file", new JsonObject().put("filename", "spec.pdf"))),
                        "messages[0].content[1].file.file_id is required when a file part has no file_data"),
                Arguments.of("/v1/responses", codexTurn(new JsonObject().put("type", "input_file").put("filename", "spec.pdf")),
                        "input[0].content[1].file_id is required when an input_file has no file_data or file_url"),
                Arguments.of("/v1/responses", codexTurn(new JsonObject().put("type", "input_image").put("detail", "high")),
                        "input[0].content[1].image_url is required when an input_image has no file_id"),
                Arguments.of("/v1/responses", codexToolOutput(new JsonObject().put("type", "input_image")
                                .put("image_url", "data:image/png;base64,\n")),
                        "input[2].output[0].image_url holds no data"));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void aMalformedImageOrFileIsRefusedNamingItsFieldBeforeAnyProviderIsCalled(String path, JsonObject body, String message) {
        long before = harness.mock.requests().size();

        Reply reply = harness.client.post(path, body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request");
        assertThat(error.getString("message")).startsWith(message);
        assertThat(harness.mock.requests()).hasSize((int) before);
    }

    @Test
    void aGeminiCallersEmptyInlineImageIsRefusedInGooglesShapeNamingTheField() {
        JsonObject body = new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                .put("parts", new JsonArray().add(new JsonObject().put("inlineData",
                        new JsonObject().put("mimeType", "image/png").put("data", " "))))));

        Reply reply = harness.client.post("/v1beta/models/gemini:generateContent", body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("status")).isEqualTo("INVALID_ARGUMENT");
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .isEqualTo("contents[0].parts[0].inlineData.data holds no data");
    }

    @Test
    void aDataUrlThatIsNotBase64IsKeptForItsOwnDialectAndNamedWhereItCannotCross() {
        JsonObject svg = new JsonObject().put("type", "image_url").put("image_url",
                new JsonObject().put("url", "data:image/svg+xml,%3Csvg%2F%3E"));

        Reply own = harness.client.post("/v1/chat/completions", chatTurn("gpt", svg));
        Reply across = harness.client.post("/v1/chat/completions", chatTurn("claude", svg));

        assertThat(own.status()).as(own.body()).isEqualTo(200);
        assertThat(across.status()).isEqualTo(400);
        assertThat(across.json().getJsonObject("error").getString("message"))
                .contains("messages[0].content[1].image_url.url (a data URL that is not base64");
    }

    @Test
    void base64BrokenIntoLinesCrossesToAnotherDialectWithoutItsLineBreaks() {
        String mime = PNG.substring(0, 40) + "\r\n" + PNG.substring(40);

        Reply reply = harness.client.post("/v1/messages", claudeCodeTurn(image("image/png", mime)).put("model", "gpt"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject sent = LadderConversations.lastSentTo(harness.mock, "gpt-4.1");
        assertThat(sent.getJsonArray("messages").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getJsonObject("image_url").getString("url")).isEqualTo("data:image/png;base64," + PNG);
    }
}
