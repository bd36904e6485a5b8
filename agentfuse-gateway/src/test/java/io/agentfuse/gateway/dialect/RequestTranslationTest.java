package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestTranslationTest {

    /** An OpenAI agent turn: system prompt, a question, a tool call, its result, and tool definitions. */
    private static JsonObject openAiToolConversation() {
        JsonObject weather = new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put("city", new JsonObject().put("type", "string")));
        return new JsonObject()
                .put("model", "gpt-4o-mini")
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "system").put("content", "You are terse."))
                        .add(new JsonObject().put("role", "user").put("content", "Weather in Paris?"))
                        .add(new JsonObject().put("role", "assistant").put("content", null).put("tool_calls", new JsonArray()
                                .add(new JsonObject().put("id", "call_1").put("type", "function").put("function",
                                        new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":\"Paris\"}")))))
                        .add(new JsonObject().put("role", "tool").put("tool_call_id", "call_1").put("content", "18°C"))
                        .add(new JsonObject().put("role", "user").put("content", "Thanks!")))
                .put("tools", new JsonArray().add(new JsonObject().put("type", "function").put("function",
                        new JsonObject().put("name", "get_weather").put("description", "Current weather")
                                .put("parameters", weather))))
                .put("tool_choice", "required")
                .put("parallel_tool_calls", false)
                .put("temperature", 0.3)
                .put("top_p", 0.9)
                .put("stop", "END")
                .put("user", "user-7");
    }

    private static JsonObject toAnthropic(JsonObject openAi) {
        return DialectTranslator.upstreamRequest(Dialects.OPENAI.parseRequest(openAi), Dialects.ANTHROPIC, "claude-haiku-4-5");
    }

    @Test
    void movesSystemMessageToAnthropicSystemField() {
        JsonObject body = toAnthropic(openAiToolConversation());

        assertThat(body.getString("system")).isEqualTo("You are terse.");
        assertThat(body.getJsonArray("messages").getJsonObject(0).getString("role")).isEqualTo("user");
    }

    @Test
    void writesToolCallsAsToolUseBlocksWithObjectInput() {
        JsonObject assistant = toAnthropic(openAiToolConversation()).getJsonArray("messages").getJsonObject(1);

        assertThat(assistant.getString("role")).isEqualTo("assistant");
        assertThat(assistant.getJsonArray("content")).containsExactly(new JsonObject().put("type", "tool_use")
                .put("id", "call_1").put("name", "get_weather").put("input", new JsonObject().put("city", "Paris")));
    }

    @Test
    void mergesToolResultAndFollowingUserTextIntoOneUserTurn() {
        JsonArray messages = toAnthropic(openAiToolConversation()).getJsonArray("messages");

        assertThat(messages).hasSize(3);
        assertThat(messages.getJsonObject(2).getJsonArray("content")).containsExactly(
                new JsonObject().put("type", "tool_result").put("tool_use_id", "call_1").put("content", "18°C"),
                new JsonObject().put("type", "text").put("text", "Thanks!"));
    }

    @Test
    void translatesToolsToolChoiceAndSampling() {
        JsonObject body = toAnthropic(openAiToolConversation());

        assertThat(body.getJsonArray("tools").getJsonObject(0).fieldNames())
                .containsExactlyInAnyOrder("name", "description", "input_schema");
        assertThat(body.getJsonObject("tool_choice"))
                .isEqualTo(new JsonObject().put("type", "any").put("disable_parallel_tool_use", true));
        assertThat(body.getDouble("temperature")).isEqualTo(0.3);
        assertThat(body.containsKey("top_p")).as("Claude since Opus 4.1 refuses it beside a temperature").isFalse();
        assertThat(body.getJsonArray("stop_sequences")).containsExactly("END");
        assertThat(body.getJsonObject("metadata").getString("user_id")).isEqualTo("user-7");
        assertThat(body.getString("model")).isEqualTo("claude-haiku-4-5");
    }

    @Test
    void setsDefaultMaxTokensForAnthropicWhenCallerGaveNone() {
        assertThat(toAnthropic(openAiToolConversation()).getInteger("max_tokens")).isEqualTo(4096);
    }

    @Test
    void carriesCallerMaxTokensToAnthropic() {
        assertThat(toAnthropic(openAiToolConversation().put("max_tokens", 300)).getInteger("max_tokens")).isEqualTo(300);
    }

    @Test
    void translatesDataUrlImagesToBase64Sources() {
        JsonObject body = openAiToolConversation();
        body.getJsonArray("messages").getJsonObject(1).put("content", new JsonArray()
                .add(new JsonObject().put("type", "text").put("text", "What is this?"))
                .add(new JsonObject().put("type", "image_url")
                        .put("image_url", new JsonObject().put("url", "data:image/png;base64,iVBORw0KGgo="))));

        JsonArray content = toAnthropic(body).getJsonArray("messages").getJsonObject(0).getJsonArray("content");

        assertThat(content.getJsonObject(1)).isEqualTo(new JsonObject().put("type", "image").put("source",
                new JsonObject().put("type", "base64").put("media_type", "image/png").put("data", "iVBORw0KGgo=")));
    }

    @Test
    void refusesToCrossWithUntranslatableFeaturesListingThem() {
        ChatRequest request = Dialects.OPENAI.parseRequest(openAiToolConversation().put("n", 3).put("logprobs", true));

        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5"))
                .isInstanceOf(UntranslatableException.class)
                .hasMessage("cannot translate: n=3 (Anthropic answers with one choice); logprobs");
    }

    @Test
    void refusesToolCallArgumentsThatAreNotAnObject() {
        JsonObject body = openAiToolConversation();
        body.getJsonArray("messages").getJsonObject(2).getJsonArray("tool_calls").getJsonObject(0)
                .getJsonObject("function").put("arguments", "[1, 2]");
        ChatRequest request = Dialects.OPENAI.parseRequest(body);

        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5"))
                .isInstanceOf(UntranslatableException.class)
                .hasMessageContaining("call_1");
    }

    @Test
    void forwardsSameDialectRequestUntouchedExceptModel() {
        JsonObject original = openAiToolConversation().put("seed", 42).put("logprobs", true);

        JsonObject body = DialectTranslator.upstreamRequest(Dialects.OPENAI.parseRequest(original), Dialects.OPENAI, "gpt-4o-mini-2024");

        assertThat(body).isEqualTo(original.copy().put("model", "gpt-4o-mini-2024"));
    }

    @Test
    void asksForUsageWhenForwardingOpenAiStream() {
        JsonObject original = openAiToolConversation().put("stream", true);

        JsonObject body = DialectTranslator.upstreamRequest(Dialects.OPENAI.parseRequest(original), Dialects.OPENAI, "gpt-4o-mini");

        assertThat(body.getJsonObject("stream_options").getBoolean("include_usage")).isTrue();
    }

    @Test
    void translatesAnthropicToolUseAndResultsToOpenAiMessages() {
        JsonObject anthropic = toAnthropic(openAiToolConversation()).put("model", "claude-haiku-4");

        JsonObject body = DialectTranslator.upstreamRequest(Dialects.ANTHROPIC.parseRequest(anthropic), Dialects.OPENAI, "gpt-4o-mini");

        JsonArray messages = body.getJsonArray("messages");
        assertThat(messages).extracting(m -> ((JsonObject) m).getString("role"))
                .containsExactly("system", "user", "assistant", "tool", "user");
        assertThat(messages.getJsonObject(3)).isEqualTo(new JsonObject().put("role", "tool")
                .put("tool_call_id", "call_1").put("content", "18°C"));
        assertThat(messages.getJsonObject(2).getJsonArray("tool_calls").getJsonObject(0).getJsonObject("function"))
                .isEqualTo(new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":\"Paris\"}"));
        assertThat(body.getValue("tool_choice")).isEqualTo("required");
        assertThat(body.getBoolean("parallel_tool_calls")).isFalse();
        assertThat(body.getInteger("max_completion_tokens")).isEqualTo(4096);
        assertThat(body.getJsonArray("stop")).containsExactly("END");
        assertThat(body.getString("user")).isEqualTo("user-7");
    }

    @Test
    void roundTripsOpenAiConversationThroughAnthropic() {
        ChatRequest original = Dialects.OPENAI.parseRequest(openAiToolConversation());
        JsonObject anthropic = DialectTranslator.upstreamRequest(original, Dialects.ANTHROPIC, "claude-haiku-4");

        ChatRequest back = Dialects.ANTHROPIC.parseRequest(anthropic);

        assertThat(back.system()).isEqualTo(original.system());
        // Anthropic merges the tool result and the next user text into one turn; written back as
        // OpenAI, that turn becomes the original tool and user messages again.
        assertThat(Dialects.OPENAI.writeRequest(back, "gpt-4o-mini").getJsonArray("messages"))
                .isEqualTo(openAiToolConversation().getJsonArray("messages"));
        assertThat(back.tools()).isEqualTo(original.tools());
        assertThat(back.toolChoice()).isEqualTo(original.toolChoice());
        assertThat(back.sampling().stopSequences()).isEqualTo(original.sampling().stopSequences());
        assertThat(back.endUser()).isEqualTo(original.endUser());
    }

    @Test
    void marksErroredToolResultsForOpenAi() {
        JsonObject anthropic = new JsonObject().put("model", "claude-haiku-4").put("max_tokens", 10)
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray().add(new JsonObject()
                                .put("type", "tool_use").put("id", "t1").put("name", "search").put("input", new JsonObject()))))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(new JsonObject()
                                .put("type", "tool_result").put("tool_use_id", "t1").put("is_error", true)
                                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "timeout")))))));

        JsonArray messages = DialectTranslator.upstreamRequest(Dialects.ANTHROPIC.parseRequest(anthropic), Dialects.OPENAI,
                "gpt-4o-mini").getJsonArray("messages");

        assertThat(messages.getJsonObject(1).getString("content")).isEqualTo("Error: timeout");
    }
}
