package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.dialect.UntranslatableException;
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

        assertThatThrownBy(() -> Dialects.OPENAI.parseRequest(body))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("model is required")
                .extracting(e -> ((InvalidRequestException) e).param()).isEqualTo("model");
    }

    @Test
    void foldsASystemMessageOfTheConversationIntoTheSystemPrompt() {
        // Claude Code 2.1.332 sends one after the user's turn; it was refused with 400 before.
        JsonObject body = anthropic().put("system", "You are terse.").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Hi"))
                .add(new JsonObject().put("role", "system").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "text").put("text", "# Environment")))));

        ChatRequest request = Dialects.ANTHROPIC.parseRequest(body);

        assertThat(request.system()).isEqualTo("You are terse.\n\n# Environment");
        assertThat(request.messages()).hasSize(1);
        assertThat(request.untranslatable()).isEmpty();
        assertThat(DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4o-mini").getJsonArray("messages")
                .getJsonObject(0).getString("content")).isEqualTo("You are terse.\n\n# Environment");
    }

    @Test
    void aStrictModelOfTheOtherDialectCannotTakeAProviderRunToolButALenientOneGoesWithout() {
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(anthropic().put("tools", new JsonArray()
                .add(new JsonObject().put("type", "web_search_20250305").put("name", "web_search"))));

        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4o-mini", false))
                .isInstanceOf(UntranslatableException.class).hasMessageContaining("web_search_20250305")
                .hasMessageContaining("translate: lenient");
        JsonObject lenient = DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4o-mini", true);
        assertThat(lenient.containsKey("tools")).isFalse();
        assertThat(DialectTranslator.dropped(request, Dialects.OPENAI, true)).containsExactly("web_search_20250305 tool");
        assertThat(DialectTranslator.dropped(request, Dialects.ANTHROPIC, true)).isEmpty();
    }

    @Test
    void keepsAnUnknownTopLevelFieldAndLeavesItOutOnlyForALenientModel() {
        ChatRequest request = Dialects.OPENAI.parseRequest(openAi().put("brand_new_option", "24h"));

        assertThat(request.original().getString("brand_new_option")).isEqualTo("24h");
        assertThat(request.untranslatable()).isEmpty();
        assertThat(request.crossing().lenientReasons()).containsExactly("brand_new_option (a field the gateway does not know)");
        assertThat(request.crossing().lenientDrops()).containsExactly("brand_new_option");
    }

    @Test
    void dropsAPromptCacheKeyAcrossDialectsAndNamesIt() {
        ChatRequest request = Dialects.OPENAI.parseRequest(openAi().put("prompt_cache_retention", "24h")
                .put("prompt_cache_key", "k").put("safety_identifier", "u1"));

        assertThat(request.untranslatable()).isEmpty();
        assertThat(request.crossing().dropped()).containsExactly("prompt_cache_retention", "prompt_cache_key",
                "safety_identifier");
    }

    @Test
    void rejectsWrongTypeWithPathAndValue() {
        JsonObject body = openAi();
        body.getJsonArray("messages").getJsonObject(0).put("role", 42);

        assertThatThrownBy(() -> Dialects.OPENAI.parseRequest(body))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("messages[0].role must be a string, but was 42");
    }

    @Test
    void rejectsUnknownRole() {
        JsonObject body = openAi();
        body.getJsonArray("messages").getJsonObject(0).put("role", "robot");

        assertThatThrownBy(() -> Dialects.OPENAI.parseRequest(body))
                .hasMessageContaining("messages[0].role must be one of")
                .hasMessageContaining("\"robot\"");
    }

    @Test
    void keepsAnAnthropicBlockItDoesNotModelAsItsJsonToCountAndToWriteBack() {
        JsonObject document = new JsonObject().put("type", "document").put("source", new JsonObject()
                .put("type", "text").put("media_type", "text/plain").put("data", "a long contract"));
        JsonObject body = anthropic();
        body.getJsonArray("messages").getJsonObject(0).put("content", new JsonArray().add(document)
                .add(new JsonObject().put("type", "text").put("text", "Summarise it.")));

        ChatRequest request = Dialects.ANTHROPIC.parseRequest(body);

        assertThat(request.messages().get(0).content()).first().isEqualTo(new ContentPart.Opaque(document.encode()));
        assertThat(request.untranslatable()).containsExactly("messages[0].content[0].source.type 'text' document sources");
        assertThat(Dialects.ANTHROPIC.writeRequest(request, "claude-haiku-4-5").getJsonArray("messages")
                .getJsonObject(0).getJsonArray("content").getJsonObject(0)).isEqualTo(document);
    }

    @Test
    void keepsAnUnknownContentPartTypeButCannotTranslateIt() {
        JsonObject body = openAi();
        body.getJsonArray("messages").getJsonObject(0)
                .put("content", new JsonArray().add(new JsonObject().put("type", "hologram")));

        assertThat(Dialects.OPENAI.parseRequest(body).untranslatable())
                .containsExactly("messages[0].content[0].type 'hologram' parts");
    }

    @Test
    void rejectsEmptyMessages() {
        assertThatThrownBy(() -> Dialects.OPENAI.parseRequest(openAi().put("messages", new JsonArray())))
                .hasMessage("messages must not be empty");
    }

    @Test
    void rejectsOutOfRangeTemperature() {
        assertThatThrownBy(() -> Dialects.ANTHROPIC.parseRequest(anthropic().put("temperature", 1.5)))
                .hasMessage("temperature must be between 0.0 and 1.0, but was 1.5");
    }

    @Test
    void requiresMaxTokensInAnthropicRequests() {
        JsonObject body = anthropic();
        body.remove("max_tokens");

        assertThatThrownBy(() -> Dialects.ANTHROPIC.parseRequest(body)).hasMessage("max_tokens is required");
    }

    @Test
    void keepsAnUnknownAnthropicContentBlockTypeButCannotTranslateIt() {
        JsonObject body = anthropic();
        body.getJsonArray("messages").getJsonObject(0)
                .put("content", new JsonArray().add(new JsonObject().put("type", "hologram")));

        assertThat(Dialects.ANTHROPIC.parseRequest(body).untranslatable())
                .containsExactly("messages[0].content[0].type 'hologram' blocks");
    }

    @Test
    void keepsAnthropicOutputConfigAndTopLevelCacheControl() {
        JsonObject body = anthropic().put("output_config", new JsonObject().put("effort", "low"))
                .put("cache_control", new JsonObject().put("type", "ephemeral"));

        ChatRequest request = Dialects.ANTHROPIC.parseRequest(body);

        assertThat(request.original().getJsonObject("output_config").getString("effort")).isEqualTo("low");
        assertThat(request.untranslatable()).isEmpty();
        assertThat(request.crossing().dropped()).containsExactlyInAnyOrder("output_config", "cache_control");
    }

    @Test
    void rejectsToolResultInAssistantMessage() {
        JsonObject body = anthropic();
        body.getJsonArray("messages").add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "t1").put("content", "x"))));

        assertThatThrownBy(() -> Dialects.ANTHROPIC.parseRequest(body))
                .hasMessageContaining("'tool_result' blocks belong in user messages");
    }

    @Test
    void hoistsSystemAndDeveloperMessagesIntoSystemPrompt() {
        JsonObject body = openAi();
        body.getJsonArray("messages").add(0, new JsonObject().put("role", "system").put("content", "Be brief."));
        body.getJsonArray("messages").add(new JsonObject().put("role", "developer").put("content", "Answer in French."));

        ChatRequest request = Dialects.OPENAI.parseRequest(body);

        assertThat(request.system()).isEqualTo("Be brief.\n\nAnswer in French.");
        assertThat(request.messages()).hasSize(1);
    }

    @Test
    void listsEveryUntranslatableFeatureOfOpenAiRequest() {
        ChatRequest request = Dialects.OPENAI.parseRequest(openAi().put("n", 2).put("logprobs", true)
                .put("modalities", new JsonArray().add("text").add("audio"))
                .put("response_format", new JsonObject().put("type", "json_schema")));

        assertThat(request.untranslatable()).containsExactlyInAnyOrder("n=2 (Anthropic answers with one choice)",
                "logprobs", "modalities with audio", "response_format json_schema");
    }

    @Test
    void acceptsSamplingHintsWithoutMarkingThemUntranslatable() {
        ChatRequest request = Dialects.OPENAI.parseRequest(openAi().put("seed", 7).put("presence_penalty", 0.5)
                .put("n", 1).put("response_format", new JsonObject().put("type", "text")));

        assertThat(request.untranslatable()).isEmpty();
    }

    @Test
    void readsStreamOptionsAsStreamMode() {
        ChatRequest request = Dialects.OPENAI.parseRequest(openAi().put("stream", true)
                .put("stream_options", new JsonObject().put("include_usage", true)));

        assertThat(request.streamMode()).isEqualTo(ChatRequest.StreamMode.STREAM_WITH_USAGE);
    }

    @Test
    void leavesServerToolsOfAnthropicOutOnlyForALenientModel() {
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(anthropic().put("tools", new JsonArray()
                .add(new JsonObject().put("type", "web_search_20250305").put("name", "web_search"))));

        assertThat(request.untranslatable()).isEmpty();
        assertThat(request.crossing().lenientReasons()).containsExactly("tools[0].type 'web_search_20250305' tools");
    }

    @Test
    void dropsThinkingBlocksWithoutMarkingThemUntranslatable() {
        JsonObject body = anthropic();
        body.getJsonArray("messages").add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                .add(new JsonObject().put("type", "thinking").put("thinking", "hmm").put("signature", "s"))
                .add(new JsonObject().put("type", "text").put("text", "Hello"))));

        ChatRequest request = Dialects.ANTHROPIC.parseRequest(body);

        assertThat(request.untranslatable()).isEmpty();
        assertThat(request.messages().get(1).content()).containsExactly(new ContentPart.Text("Hello"));
    }
}
