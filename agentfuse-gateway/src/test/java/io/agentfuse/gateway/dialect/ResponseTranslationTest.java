package io.agentfuse.gateway.dialect;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseTranslationTest {

    private final ManualClock clock = new ManualClock();

    private static JsonObject openAiToolAnswer() {
        JsonObject message = new JsonObject().put("role", "assistant").put("content", "Let me check.")
                .put("tool_calls", new JsonArray().add(new JsonObject().put("id", "call_9").put("type", "function")
                        .put("function", new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":\"Oslo\"}"))));
        return new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion").put("created", 1_700_000_000L)
                .put("model", "gpt-4o-mini")
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("message", message)
                        .put("finish_reason", "tool_calls")))
                .put("usage", new JsonObject().put("prompt_tokens", 30).put("completion_tokens", 12).put("total_tokens", 42));
    }

    private static JsonObject anthropicAnswer(String stopReason) {
        return new JsonObject().put("id", "msg_1").put("type", "message").put("role", "assistant")
                .put("model", "claude-haiku-4-5")
                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "Bonjour")))
                .put("stop_reason", stopReason).put("stop_sequence", null)
                .put("usage", new JsonObject().put("input_tokens", 20).put("output_tokens", 3)
                        .put("cache_read_input_tokens", 100));
    }

    @Test
    void translatesOpenAiToolCallAnswerToAnthropicMessage() {
        JsonObject body = DialectTranslator.clientResponse(openAiToolAnswer(), Dialects.OPENAI, Dialects.ANTHROPIC, clock);

        assertThat(body.getString("type")).isEqualTo("message");
        assertThat(body.getJsonArray("content")).containsExactly(
                new JsonObject().put("type", "text").put("text", "Let me check."),
                new JsonObject().put("type", "tool_use").put("id", "call_9").put("name", "get_weather")
                        .put("input", new JsonObject().put("city", "Oslo")));
        assertThat(body.getString("stop_reason")).isEqualTo("tool_use");
        assertThat(body.getJsonObject("usage")).isEqualTo(new JsonObject().put("input_tokens", 30).put("output_tokens", 12));
    }

    @Test
    void translatesAnthropicAnswerToOpenAiCompletionCountingCachedInput() {
        JsonObject body = DialectTranslator.clientResponse(anthropicAnswer("end_turn"), Dialects.ANTHROPIC, Dialects.OPENAI, clock);

        JsonObject choice = body.getJsonArray("choices").getJsonObject(0);
        assertThat(body.getString("object")).isEqualTo("chat.completion");
        assertThat(choice.getJsonObject("message").getString("content")).isEqualTo("Bonjour");
        assertThat(choice.getString("finish_reason")).isEqualTo("stop");
        assertThat(body.getJsonObject("usage")).isEqualTo(new JsonObject().put("prompt_tokens", 120)
                .put("completion_tokens", 3).put("total_tokens", 123)
                .put("prompt_tokens_details", new JsonObject().put("cached_tokens", 100)));
    }

    @Test
    void mapsAnthropicStopReasonsToOpenAiFinishReasons() {
        assertThat(finishReasonFor("max_tokens")).isEqualTo("length");
        assertThat(finishReasonFor("stop_sequence")).isEqualTo("stop");
        assertThat(finishReasonFor("tool_use")).isEqualTo("tool_calls");
        assertThat(finishReasonFor("refusal")).isEqualTo("content_filter");
    }

    @Test
    void mapsOpenAiFinishReasonsToAnthropicStopReasons() {
        assertThat(FinishReason.fromOpenAi("stop").anthropic()).isEqualTo("end_turn");
        assertThat(FinishReason.fromOpenAi("length").anthropic()).isEqualTo("max_tokens");
        assertThat(FinishReason.fromOpenAi("tool_calls").anthropic()).isEqualTo("tool_use");
    }

    @Test
    void keepsSameDialectAnswerAsSent() {
        JsonObject answer = openAiToolAnswer().put("system_fingerprint", "fp_x");

        assertThat(DialectTranslator.clientResponse(answer, Dialects.OPENAI, Dialects.OPENAI, clock)).isEqualTo(answer);
    }

    @Test
    void readsUsageOfEitherDialect() {
        assertThat(Dialects.OPENAI.usageOf(openAiToolAnswer())).isEqualTo(Usage.of(30, 12));
        assertThat(Dialects.ANTHROPIC.usageOf(anthropicAnswer("end_turn"))).isEqualTo(Usage.of(120, 3, CachedTokens.ofReads(100)));
        assertThat(Dialects.ANTHROPIC.usageOf(new JsonObject())).isEqualTo(Usage.ZERO);
    }

    @Test
    void roundTripsAnswerThroughBothDialects() {
        ChatResponse original = Dialects.OPENAI.parseResponse(openAiToolAnswer(), clock);

        ChatResponse back = Dialects.ANTHROPIC.parseResponse(Dialects.ANTHROPIC.writeResponse(original), clock);

        assertThat(back.content()).isEqualTo(original.content());
        assertThat(back.finishReason()).isEqualTo(original.finishReason());
        assertThat(back.usage()).isEqualTo(original.usage());
    }

    private String finishReasonFor(String stopReason) {
        return DialectTranslator.clientResponse(anthropicAnswer(stopReason), Dialects.ANTHROPIC, Dialects.OPENAI, clock)
                .getJsonArray("choices").getJsonObject(0).getString("finish_reason");
    }
}
