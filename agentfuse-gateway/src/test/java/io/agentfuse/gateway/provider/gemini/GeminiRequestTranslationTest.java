package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ChatRequest to Gemini's generateContent body and back: text, system prompts, tools, tool results, images, sampling. */
class GeminiRequestTranslationTest {

    private static final JsonObject WEATHER_SCHEMA = new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("city", new JsonObject().put("type", "string")));

    /** An OpenAI conversation with a system prompt, a tool, a call, its result and an image. */
    private static ChatRequest openAiConversation() {
        JsonObject body = new JsonObject().put("model", "gpt-4.1")
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "system").put("content", "Be brief."))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "text").put("text", "Weather here?"))
                                .add(new JsonObject().put("type", "image_url").put("image_url",
                                        new JsonObject().put("url", "data:image/png;base64,iVBORw0")))))
                        .add(new JsonObject().put("role", "assistant").putNull("content").put("tool_calls", new JsonArray()
                                .add(new JsonObject().put("id", "call_7").put("type", "function").put("function",
                                        new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":\"Paris\"}")))))
                        .add(new JsonObject().put("role", "tool").put("tool_call_id", "call_7").put("content", "18°C")))
                .put("tools", new JsonArray().add(new JsonObject().put("type", "function").put("function", new JsonObject()
                        .put("name", "get_weather").put("description", "Current weather").put("parameters", WEATHER_SCHEMA))))
                .put("tool_choice", "required")
                .put("max_tokens", 256).put("temperature", 0.5).put("stop", new JsonArray().add("END"));
        return Dialects.OPENAI.parseRequest(body);
    }

    @Test
    void anOpenAiConversationIsWrittenAsGeminiContentsWithItsSystemToolsAndSampling() {
        JsonObject body = GeminiDialect.INSTANCE.writeRequest(openAiConversation(), "gemini-2.5-pro");

        assertThat(body.containsKey("model")).isFalse();
        assertThat(body.getJsonObject("systemInstruction")).isEqualTo(new JsonObject()
                .put("parts", new JsonArray().add(new JsonObject().put("text", "Be brief."))));
        JsonArray contents = body.getJsonArray("contents");
        assertThat(contents).hasSize(3);
        assertThat(contents.getJsonObject(0).getJsonArray("parts")).containsExactly(
                new JsonObject().put("text", "Weather here?"),
                new JsonObject().put("inlineData", new JsonObject().put("mimeType", "image/png").put("data", "iVBORw0")));
        assertThat(contents.getJsonObject(1)).isEqualTo(new JsonObject().put("role", "model").put("parts", new JsonArray()
                .add(new JsonObject().put("functionCall", new JsonObject().put("name", "get_weather")
                        .put("args", new JsonObject().put("city", "Paris"))))));
        assertThat(contents.getJsonObject(2)).isEqualTo(new JsonObject().put("role", "user").put("parts", new JsonArray()
                .add(new JsonObject().put("functionResponse", new JsonObject().put("name", "get_weather")
                        .put("response", new JsonObject().put("output", "18°C"))))));
        JsonObject declaration = body.getJsonArray("tools").getJsonObject(0).getJsonArray("functionDeclarations").getJsonObject(0);
        assertThat(declaration).isEqualTo(new JsonObject().put("name", "get_weather").put("description", "Current weather")
                .put("parametersJsonSchema", WEATHER_SCHEMA));
        assertThat(body.getJsonObject("toolConfig")).isEqualTo(new JsonObject().put("functionCallingConfig",
                new JsonObject().put("mode", "ANY")));
        assertThat(body.getJsonObject("generationConfig")).isEqualTo(new JsonObject().put("maxOutputTokens", 256)
                .put("temperature", 0.5).put("stopSequences", new JsonArray().add("END")));
    }

    @Test
    void aToolResultWhoseCallIsNotInTheConversationIsUntranslatable() {
        JsonObject body = new JsonObject().put("model", "claude").put("max_tokens", 10).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(new JsonObject()
                        .put("type", "tool_result").put("tool_use_id", "toolu_1").put("content", "done")))));
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(body);

        assertThatThrownBy(() -> GeminiDialect.INSTANCE.writeRequest(request, "gemini-2.5-pro"))
                .isInstanceOf(UntranslatableException.class).hasMessageContaining("toolu_1");
    }

    @Test
    void theGeminiBodyWrittenParsesBackToTheSameConversation() {
        ChatRequest original = openAiConversation();
        JsonObject body = GeminiDialect.INSTANCE.writeRequest(original, "gemini-2.5-pro");

        ChatRequest parsed = GeminiDialect.INSTANCE.parseRequest(body, "gemini-2.5-pro", true);

        assertThat(parsed.untranslatable()).isEmpty();
        assertThat(parsed.stream()).isTrue();
        assertThat(parsed.model()).isEqualTo("gemini-2.5-pro");
        assertThat(parsed.system()).isEqualTo("Be brief.");
        assertThat(parsed.messages().get(0).content()).containsExactly(new ContentPart.Text("Weather here?"),
                new ContentPart.Image("data:image/png;base64,iVBORw0"));
        ContentPart.ToolCall call = (ContentPart.ToolCall) parsed.messages().get(1).content().get(0);
        assertThat(call.name()).isEqualTo("get_weather");
        assertThat(new JsonObject(call.arguments())).isEqualTo(new JsonObject().put("city", "Paris"));
        assertThat(parsed.messages().get(2)).isEqualTo(new ChatMessage(ChatMessage.Role.USER,
                java.util.List.of(new ContentPart.ToolResult(call.id(), "18°C", false))));
        assertThat(parsed.tools().get(0).parameters()).isEqualTo(WEATHER_SCHEMA);
        assertThat(parsed.toolChoice()).isEqualTo(new ToolChoice(ToolChoice.Mode.REQUIRED, null, true));
        assertThat(parsed.sampling()).isEqualTo(original.sampling());
    }

    @Test
    void aGeminiCallerSendsOpenApiSchemasWhoseTypesBecomeJsonSchemaTypes() {
        JsonObject body = new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                        .put("parts", new JsonArray().add(new JsonObject().put("text", "Hi")))))
                .put("tools", new JsonArray().add(new JsonObject().put("functionDeclarations", new JsonArray()
                        .add(new JsonObject().put("name", "f").put("parameters", new JsonObject().put("type", "OBJECT")
                                .put("properties", new JsonObject().put("q", new JsonObject().put("type", "STRING"))))))));

        ChatRequest parsed = GeminiDialect.INSTANCE.parseRequest(body, "gemini-2.5-pro", false);

        assertThat(parsed.tools().get(0).parameters()).isEqualTo(new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put("q", new JsonObject().put("type", "string"))));
    }

    @Test
    void serverToolsStructuredOutputAndCachedContentAreUntranslatableAndSafetySettingsAreDropped() {
        JsonObject body = new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                        .put("parts", new JsonArray().add(new JsonObject().put("text", "Hi")))))
                .put("tools", new JsonArray().add(new JsonObject().put("googleSearch", new JsonObject())))
                .put("generationConfig", new JsonObject().put("responseMimeType", "application/json").put("topK", 40))
                .put("cachedContent", "cachedContents/abc")
                .put("safetySettings", new JsonArray());

        ChatRequest parsed = GeminiDialect.INSTANCE.parseRequest(body, "gemini-2.5-pro", false);

        assertThat(parsed.untranslatable()).hasSize(3)
                .anySatisfy(reason -> assertThat(reason).contains("googleSearch"))
                .anySatisfy(reason -> assertThat(reason).contains("responseMimeType"))
                .anySatisfy(reason -> assertThat(reason).contains("cachedContent"));
    }

    @Test
    void theModelOfABodyIsTakenWithoutItsModelsPrefixAndSentUpstreamInThePathOnly() {
        JsonObject body = new JsonObject().put("model", "models/gemini-2.5-flash").put("contents", new JsonArray()
                .add(new JsonObject().put("parts", new JsonArray().add(new JsonObject().put("text", "Hi")))));

        ChatRequest parsed = GeminiDialect.INSTANCE.parseRequest(body);

        assertThat(parsed.model()).isEqualTo("gemini-2.5-flash");
        assertThat(GeminiDialect.INSTANCE.sameDialectRequest(ChatRequest.shallowCopy(body), "gemini-2.5-pro", true)
                .containsKey("model")).isFalse();
        assertThat(GeminiDialect.INSTANCE.upstreamPath("gemini-2.5-pro", true))
                .isEqualTo("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    }
}
