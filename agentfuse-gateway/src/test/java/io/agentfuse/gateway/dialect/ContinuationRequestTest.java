package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request that continues a broken answer: a prefill where the provider continues one (Anthropic,
 * without extended thinking), else the text sent followed by a short user turn; written into the
 * caller's own body, so that a provider of the caller's dialect gets it with every other field.
 */
class ContinuationRequestTest {

    private static JsonObject anthropicBody() {
        return new JsonObject().put("model", "claude").put("max_tokens", 100).put("stream", true).put("top_k", 5)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Count to three")));
    }

    @Test
    void givenAnAnthropicProviderThenTheTextSentIsATrailingAssistantTurnWithoutItsTrailingWhitespace() {
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(anthropicBody());

        ChatRequest continued = ContinuationRequest.of(request, "one two ", Dialects.ANTHROPIC);
        JsonObject body = DialectTranslator.upstreamRequest(continued, Dialects.ANTHROPIC, "claude");

        JsonArray messages = body.getJsonArray("messages");
        assertThat(messages).hasSize(2);
        JsonObject last = messages.getJsonObject(1);
        assertThat(last.getString("role")).isEqualTo("assistant");
        assertThat(last.encode()).contains("\"one two\"").doesNotContain(ContinuationRequest.INSTRUCTION);
        assertThat(body.getInteger("top_k")).as("the caller's other fields go with it").isEqualTo(5);
    }

    @Test
    void givenAnOpenAiProviderThenTheTextSentIsFollowedByAUserTurnAskingToContinue() {
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(anthropicBody());

        JsonObject body = DialectTranslator.upstreamRequest(ContinuationRequest.of(request, "one two ", Dialects.OPENAI),
                Dialects.OPENAI, "gpt");

        JsonArray messages = body.getJsonArray("messages");
        assertThat(messages.getJsonObject(messages.size() - 2).getString("role")).isEqualTo("assistant");
        assertThat(messages.getJsonObject(messages.size() - 2).encode()).contains("one two ");
        assertThat(messages.getJsonObject(messages.size() - 1).getString("role")).isEqualTo("user");
        assertThat(messages.getJsonObject(messages.size() - 1).encode()).contains(ContinuationRequest.INSTRUCTION);
    }

    @Test
    void givenExtendedThinkingThenAnthropicIsAskedWithAnInstructionSinceItRefusesAPrefill() {
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(anthropicBody()
                .put("thinking", new JsonObject().put("type", "enabled").put("budget_tokens", 1024)));

        assertThat(Dialects.ANTHROPIC.continuesPrefilledAnswer(request)).isFalse();
        JsonArray messages = ContinuationRequest.of(request, "one", Dialects.ANTHROPIC).received().getJsonArray("messages");
        assertThat(messages.getJsonObject(messages.size() - 1).encode()).contains(ContinuationRequest.INSTRUCTION);
    }

    @Test
    void givenACallerWhoPrefilledTheAnswerThenTheTextSentJoinsItsAssistantTurn() {
        JsonObject body = anthropicBody();
        body.getJsonArray("messages").add(new JsonObject().put("role", "assistant").put("content", "Sure:"));
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(body);

        JsonArray messages = ContinuationRequest.of(request, " one", Dialects.ANTHROPIC).received().getJsonArray("messages");

        assertThat(messages).hasSize(2);
        assertThat(messages.getJsonObject(1).getString("role")).isEqualTo("assistant");
        assertThat(messages.getJsonObject(1).encode()).contains("Sure:").contains(" one");
    }
}
