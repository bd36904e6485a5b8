package io.agentfuse.gateway.dialect;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestParsingTest {

    private static JsonObject openAi() {
        return new JsonObject().put("model", "gpt-4o-mini")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    private static JsonObject anthropic() {
        return openAi().put("model", "claude-haiku-4").put("max_tokens", 256);
    }

    @Test
    void rejectsMissingModelNamingTheField() {
        JsonObject body = openAi();
        body.remove("model");

        assertThatThrownBy(() -> Dialect.OPENAI.parseRequest(body))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("model is required")
                .extracting(e -> ((InvalidRequestException) e).param()).isEqualTo("model");
    }

    @Test
    void rejectsUnknownTopLevelField() {
        assertThatThrownBy(() -> Dialect.OPENAI.parseRequest(openAi().put("temprature", 0.2)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("temprature is not a known field");
    }

    @Test
    void rejectsWrongTypeWithPathAndValue() {
        JsonObject body = openAi();
        body.getJsonArray("messages").getJsonObject(0).put("role", 42);

        assertThatThrownBy(() -> Dialect.OPENAI.parseRequest(body))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("messages[0].role must be a string, but was 42");
    }

    @Test
    void rejectsUnknownRole() {
        JsonObject body = openAi();
        body.getJsonArray("messages").getJsonObject(0).put("role", "robot");

        assertThatThrownBy(() -> Dialect.OPENAI.parseRequest(body))
                .hasMessageContaining("messages[0].role must be one of")
                .hasMessageContaining("\"robot\"");
    }

    @Test
    void rejectsUnknownContentPartType() {
        JsonObject body = openAi();
        body.getJsonArray("messages").getJsonObject(0)
                .put("content", new JsonArray().add(new JsonObject().put("type", "hologram")));

        assertThatThrownBy(() -> Dialect.OPENAI.parseRequest(body))
                .hasMessageStartingWith("messages[0].content[0].type must be one of");
    }

    @Test
    void rejectsEmptyMessages() {
        assertThatThrownBy(() -> Dialect.OPENAI.parseRequest(openAi().put("messages", new JsonArray())))
                .hasMessage("messages must not be empty");
    }

    @Test
    void rejectsOutOfRangeTemperature() {
        assertThatThrownBy(() -> Dialect.ANTHROPIC.parseRequest(anthropic().put("temperature", 1.5)))
                .hasMessage("temperature must be between 0.0 and 1.0, but was 1.5");
    }

    @Test
    void requiresMaxTokensInAnthropicRequests() {
        JsonObject body = anthropic();
        body.remove("max_tokens");

        assertThatThrownBy(() -> Dialect.ANTHROPIC.parseRequest(body)).hasMessage("max_tokens is required");
    }

    @Test
    void rejectsUnknownAnthropicContentBlockType() {
        JsonObject body = anthropic();
        body.getJsonArray("messages").getJsonObject(0)
                .put("content", new JsonArray().add(new JsonObject().put("type", "hologram")));

        assertThatThrownBy(() -> Dialect.ANTHROPIC.parseRequest(body))
                .hasMessage("messages[0].content[0].type is not a known content block type: \"hologram\"");
    }

    @Test
    void rejectsToolResultInAssistantMessage() {
        JsonObject body = anthropic();
        body.getJsonArray("messages").add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "t1").put("content", "x"))));

        assertThatThrownBy(() -> Dialect.ANTHROPIC.parseRequest(body))
                .hasMessageContaining("'tool_result' blocks belong in user messages");
    }

    @Test
    void hoistsSystemAndDeveloperMessagesIntoSystemPrompt() {
        JsonObject body = openAi();
        body.getJsonArray("messages").add(0, new JsonObject().put("role", "system").put("content", "Be brief."));
        body.getJsonArray("messages").add(new JsonObject().put("role", "developer").put("content", "Answer in French."));

        ChatRequest request = Dialect.OPENAI.parseRequest(body);

        assertThat(request.system()).isEqualTo("Be brief.\n\nAnswer in French.");
        assertThat(request.messages()).hasSize(1);
    }

    @Test
    void listsEveryUntranslatableFeatureOfOpenAiRequest() {
        ChatRequest request = Dialect.OPENAI.parseRequest(openAi().put("n", 2).put("logprobs", true)
                .put("modalities", new JsonArray().add("text").add("audio"))
                .put("response_format", new JsonObject().put("type", "json_schema")));

        assertThat(request.untranslatable()).containsExactlyInAnyOrder("n=2 (Anthropic answers with one choice)",
                "logprobs", "modalities with audio", "response_format json_schema");
    }

    @Test
    void acceptsSamplingHintsWithoutMarkingThemUntranslatable() {
        ChatRequest request = Dialect.OPENAI.parseRequest(openAi().put("seed", 7).put("presence_penalty", 0.5)
                .put("n", 1).put("response_format", new JsonObject().put("type", "text")));

        assertThat(request.untranslatable()).isEmpty();
    }

    @Test
    void readsStreamOptionsAsStreamMode() {
        ChatRequest request = Dialect.OPENAI.parseRequest(openAi().put("stream", true)
                .put("stream_options", new JsonObject().put("include_usage", true)));

        assertThat(request.streamMode()).isEqualTo(ChatRequest.StreamMode.STREAM_WITH_USAGE);
    }

    @Test
    void marksServerToolsOfAnthropicUntranslatable() {
        ChatRequest request = Dialect.ANTHROPIC.parseRequest(anthropic().put("tools", new JsonArray()
                .add(new JsonObject().put("type", "web_search_20250305").put("name", "web_search"))));

        assertThat(request.untranslatable()).containsExactly("tools[0].type 'web_search_20250305' tools");
    }

    @Test
    void dropsThinkingBlocksWithoutMarkingThemUntranslatable() {
        JsonObject body = anthropic();
        body.getJsonArray("messages").add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                .add(new JsonObject().put("type", "thinking").put("thinking", "hmm").put("signature", "s"))
                .add(new JsonObject().put("type", "text").put("text", "Hello"))));

        ChatRequest request = Dialect.ANTHROPIC.parseRequest(body);

        assertThat(request.untranslatable()).isEmpty();
        assertThat(request.messages().get(1).content()).containsExactly(new ContentPart.Text("Hello"));
    }
}
