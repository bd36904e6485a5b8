package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.DialectTranslator;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.agentfuse.gateway.provider.responses.ResponsesRequests.message;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.part;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.request;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.toolConversation;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.weatherTool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Responses API request on its way to a provider: what only the Responses API's own state or tools
 * can serve is named, what other providers do without is dropped and named, the body goes to a
 * Responses provider as it came, and a tool conversation is translated to Anthropic and Chat Completions.
 */
class ResponsesRequestCrossingTest {

    @Test
    void dropsCodexsClientMetadataAndCacheKeyAndNamesThem() {
        JsonObject body = request(new JsonArray().add(message("user", "Hi")))
                .put("client_metadata", new JsonObject().put("x-codex-turn-metadata", "{}"))
                .put("prompt_cache_key", "k").put("store", false).put("include", new JsonArray().add("reasoning.encrypted_content"));

        ChatRequest parsed = ResponsesRequestParser.parse(body);

        assertThat(parsed.untranslatable()).isEmpty();
        assertThat(parsed.crossing().dropped()).containsExactly("client_metadata", "prompt_cache_key", "store", "include");
    }

    @Test
    void listsEveryFieldThatNeedsTheProvidersStateOrTools() {
        JsonObject body = request(new JsonArray().add(message("user", "Hi"))
                        .add(new JsonObject().put("type", "item_reference").put("id", "msg_9")))
                .put("previous_response_id", "resp_1").put("store", true)
                .put("tools", new JsonArray().add(new JsonObject().put("type", "web_search")).add(weatherTool()))
                .put("text", new JsonObject().put("format", new JsonObject().put("type", "json_schema")))
                .put("include", new JsonArray().add("file_search_call.results"))
                .put("brand_new_field", 1);

        ChatRequest parsed = ResponsesRequestParser.parse(body);

        assertThat(String.join("; ", parsed.untranslatable())).contains("previous_response_id",
                "input[1].type 'item_reference'", "text.format of type 'json_schema'");
        assertThat(String.join("; ", parsed.crossing().lenientReasons())).contains("tools[0].type 'web_search'",
                "brand_new_field");
        assertThat(parsed.crossing().dropped()).contains("store", "include");
    }

    @Test
    void translatingAnUntranslatableRequestToAnthropicNamesTheField() {
        ChatRequest parsed = ResponsesRequestParser.parse(request("Hi").put("previous_response_id", "resp_1"));

        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(parsed, Dialects.ANTHROPIC, "claude-haiku-4-5"))
                .isInstanceOf(UntranslatableException.class)
                .hasMessageContaining("previous_response_id");
    }

    @Test
    void forwardsTheOriginalBodyToAResponsesProviderWithOnlyTheModelChanged() {
        JsonObject body = request("Hi").put("previous_response_id", "resp_1").put("store", true)
                .put("tools", new JsonArray().add(new JsonObject().put("type", "web_search")))
                .put("brand_new_field", new JsonObject().put("x", 1));

        JsonObject forwarded = DialectTranslator.upstreamRequest(ResponsesRequestParser.parse(body), Dialects.RESPONSES, "gpt-4.1");

        assertThat(forwarded).isEqualTo(body.copy().put("model", "gpt-4.1"));
    }

    @Test
    void translatesAToolConversationToAnthropicMessages() {
        JsonObject body = request(toolConversation()).put("instructions", "Be kind.")
                .put("tools", new JsonArray().add(weatherTool())).put("max_output_tokens", 100);

        JsonObject anthropic = DialectTranslator.upstreamRequest(ResponsesRequestParser.parse(body), Dialects.ANTHROPIC,
                "claude-haiku-4-5");

        assertThat(anthropic.getString("system")).isEqualTo("Be kind.\n\nBe brief.");
        assertThat(anthropic.getInteger("max_tokens")).isEqualTo(100);
        assertThat(anthropic.getJsonArray("tools").getJsonObject(0).getString("name")).isEqualTo("get_weather");
        JsonArray messages = anthropic.getJsonArray("messages");
        assertThat(messages).hasSize(3);
        JsonArray assistant = messages.getJsonObject(1).getJsonArray("content");
        assertThat(assistant.getJsonObject(1).getString("type")).isEqualTo("tool_use");
        assertThat(assistant.getJsonObject(1).getJsonObject("input").getString("city")).isEqualTo("Paris");
        JsonObject result = messages.getJsonObject(2).getJsonArray("content").getJsonObject(0);
        assertThat(result.getString("type")).isEqualTo("tool_result");
        assertThat(result.getString("tool_use_id")).isEqualTo("call_1");
    }

    @Test
    void translatesToChatCompletionsForAProviderWithoutTheResponsesApi() {
        JsonObject chat = DialectTranslator.upstreamRequest(ResponsesRequestParser.parse(request(toolConversation())),
                Dialects.OPENAI, "gpt-4o-mini");

        JsonArray messages = chat.getJsonArray("messages");
        assertThat(messages.getJsonObject(0).getString("role")).isEqualTo("system");
        assertThat(messages.getJsonObject(2).getJsonArray("tool_calls").getJsonObject(0).getString("id")).isEqualTo("call_1");
        assertThat(messages.getJsonObject(3).getString("role")).isEqualTo("tool");
    }

    @Test
    void temperatureAboveOneCannotGoToAnthropic() {
        List<String> reasons = ResponsesRequestParser.parse(request("Hi").put("temperature", 1.5)).untranslatable();

        assertThat(reasons).anyMatch(reason -> reason.contains("temperature"));
    }
}
