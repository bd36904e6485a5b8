package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ChatRequest to Converse bodies, Converse answers to the neutral model and back, Bedrock's exceptions to outcomes. */
class BedrockTranslationTest {

    private static final BedrockDialect BEDROCK = BedrockDialect.INSTANCE;

    private static ChatRequest anthropicConversation(JsonObject imageSource) {
        JsonObject body = new JsonObject().put("model", "claude-sonnet-4").put("max_tokens", 512).put("system", "Be brief.")
                .put("temperature", 0.2).put("stop_sequences", new JsonArray().add("###"))
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "text").put("text", "What is this?"))
                                .add(new JsonObject().put("type", "image").put("source", imageSource))))
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "tool_use").put("id", "toolu_1").put("name", "lookup")
                                        .put("input", new JsonObject().put("q", "cat")))))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_1")
                                        .put("content", "not found").put("is_error", true))
                                .add(new JsonObject().put("type", "text").put("text", "Try again")))))
                .put("tools", new JsonArray().add(new JsonObject().put("name", "lookup").put("description", "Search")
                        .put("input_schema", new JsonObject().put("type", "object"))))
                .put("tool_choice", new JsonObject().put("type", "tool").put("name", "lookup"));
        return Dialects.ANTHROPIC.parseRequest(body);
    }

    private static final JsonObject PNG = new JsonObject().put("type", "base64").put("media_type", "image/png").put("data", "iVBOR");

    @Test
    void anAnthropicConversationIsWrittenAsAConverseBody() {
        JsonObject body = BEDROCK.writeRequest(anthropicConversation(PNG), "anthropic.claude-sonnet-4-5-v1:0");

        assertThat(body.fieldNames()).containsExactlyInAnyOrder("messages", "system", "inferenceConfig", "toolConfig");
        assertThat(body.getJsonArray("system")).containsExactly(new JsonObject().put("text", "Be brief."));
        JsonArray messages = body.getJsonArray("messages");
        assertThat(messages.getJsonObject(0).getJsonArray("content")).containsExactly(
                new JsonObject().put("text", "What is this?"),
                new JsonObject().put("image", new JsonObject().put("format", "png")
                        .put("source", new JsonObject().put("bytes", "iVBOR"))));
        assertThat(messages.getJsonObject(1).getJsonArray("content")).containsExactly(new JsonObject().put("toolUse",
                new JsonObject().put("toolUseId", "toolu_1").put("name", "lookup").put("input", new JsonObject().put("q", "cat"))));
        assertThat(messages.getJsonObject(2).getJsonArray("content")).containsExactly(
                new JsonObject().put("toolResult", new JsonObject().put("toolUseId", "toolu_1")
                        .put("content", new JsonArray().add(new JsonObject().put("text", "not found"))).put("status", "error")),
                new JsonObject().put("text", "Try again"));
        assertThat(body.getJsonObject("inferenceConfig")).isEqualTo(new JsonObject().put("maxTokens", 512)
                .put("temperature", 0.2).put("stopSequences", new JsonArray().add("###")));
        assertThat(body.getJsonObject("toolConfig")).isEqualTo(new JsonObject()
                .put("tools", new JsonArray().add(new JsonObject().put("toolSpec", new JsonObject().put("name", "lookup")
                        .put("description", "Search").put("inputSchema", new JsonObject().put("json", new JsonObject().put("type", "object"))))))
                .put("toolChoice", new JsonObject().put("tool", new JsonObject().put("name", "lookup"))));
        assertThat(BEDROCK.upstreamPath("anthropic.claude-sonnet-4-5-v1:0", true))
                .isEqualTo("/model/anthropic.claude-sonnet-4-5-v1%3A0/converse-stream");
    }

    @Test
    void anImageByUrlIsUntranslatableForBedrock() {
        ChatRequest request = anthropicConversation(new JsonObject().put("type", "url").put("url", "https://x/cat.png"));

        assertThatThrownBy(() -> BEDROCK.writeRequest(request, "m")).isInstanceOf(UntranslatableException.class)
                .hasMessageContaining("image by URL");
    }

    @Test
    void aConverseAnswerIsReadWithItsTextToolUseStopReasonAndUsageAndWrittenBack() {
        JsonObject answer = new JsonObject()
                .put("output", new JsonObject().put("message", new JsonObject().put("role", "assistant").put("content", new JsonArray()
                        .add(new JsonObject().put("text", "Let me check."))
                        .add(new JsonObject().put("toolUse", new JsonObject().put("toolUseId", "tooluse_1").put("name", "lookup")
                                .put("input", new JsonObject().put("q", "cat")))))))
                .put("stopReason", "tool_use")
                .put("usage", new JsonObject().put("inputTokens", 20).put("outputTokens", 7).put("cacheReadInputTokens", 100));

        ChatResponse response = BEDROCK.parseResponse(BEDROCK.checkAnswer(Buffer.buffer(answer.encode())), new ManualClock());

        assertThat(response.content()).containsExactly(new ContentPart.Text("Let me check."),
                new ContentPart.ToolCall("tooluse_1", "lookup", "{\"q\":\"cat\"}"));
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.usage()).isEqualTo(Usage.of(120, 7, CachedTokens.ofReads(100)));
        JsonObject written = BEDROCK.writeResponse(response);
        assertThat(written.getString("stopReason")).isEqualTo("tool_use");
        assertThat(written.getJsonObject("output").getJsonObject("message").getJsonArray("content"))
                .isEqualTo(answer.getJsonObject("output").getJsonObject("message").getJsonArray("content"));
    }

    /**
     * Bedrock splits the cache writes by their time to live in {@code cacheDetails} (Claude Code's
     * {@code ENABLE_PROMPT_CACHING_1H_BEDROCK}): an hour's writes cost twice the input price, not 1.25 times.
     */
    @Test
    void theCacheWritesKeptAnHourAreToldApartAndWrittenBack() {
        JsonObject usage = new JsonObject().put("inputTokens", 10).put("outputTokens", 5).put("cacheReadInputTokens", 1_000)
                .put("cacheWriteInputTokens", 300).put("cacheDetails", new JsonArray()
                        .add(new JsonObject().put("ttl", "1h").put("inputTokens", 200))
                        .add(new JsonObject().put("ttl", "5m").put("inputTokens", 100)));

        Usage read = BedrockResponseCodec.usage(usage);

        assertThat(read).isEqualTo(Usage.of(1_310, 5, new CachedTokens(1_000, 100, 200)));
        JsonObject written = BedrockResponseCodec.usageJson(read);
        assertThat(written.getJsonArray("cacheDetails")).isEqualTo(usage.getJsonArray("cacheDetails"));
        assertThat(written.getInteger("cacheWriteInputTokens")).isEqualTo(300);
        assertThat(BedrockResponseCodec.usage(usage.copy().put("cacheDetails", "not a list")))
                .as("a malformed split is read as writes of five minutes").isEqualTo(Usage.of(1_310, 5, new CachedTokens(1_000, 300, 0)));
    }

    @Test
    void stopReasonsMapToTheNeutralOnes() {
        assertThat(BedrockResponseCodec.finishReason("end_turn")).isEqualTo(FinishReason.STOP);
        assertThat(BedrockResponseCodec.finishReason("max_tokens")).isEqualTo(FinishReason.LENGTH);
        assertThat(BedrockResponseCodec.finishReason("stop_sequence")).isEqualTo(FinishReason.STOP_SEQUENCE);
        assertThat(BedrockResponseCodec.finishReason("guardrail_intervened")).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(BedrockResponseCodec.finishReason("content_filtered")).isEqualTo(FinishReason.CONTENT_FILTER);
    }

    @Test
    void anAnswerOfAnotherShapeIsMalformed() {
        assertThatThrownBy(() -> BEDROCK.checkAnswer(Buffer.buffer("{\"choices\":[]}")))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("output");
        assertThatThrownBy(() -> BEDROCK.checkAnswer(Buffer.buffer(
                "{\"output\":{\"message\":{\"content\":[{\"text\":1}]}},\"stopReason\":\"end_turn\"}")))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("output.message.content[0].text");
    }

    @Test
    void bedrocksExceptionsMapToOutcomesByTheirNames() {
        String header = "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/";
        assertThat(BedrockErrors.outcome(429, header, "{\"message\":\"Too many requests\"}")).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(BedrockErrors.outcome(429, "ModelNotReadyException", "{}")).isEqualTo(Outcome.OVERLOADED);
        assertThat(BedrockErrors.outcome(503, null, "{\"__type\":\"com.amazon.bedrock#ServiceUnavailableException\"}"))
                .isEqualTo(Outcome.OVERLOADED);
        assertThat(BedrockErrors.outcome(408, "ModelTimeoutException", "{}")).isEqualTo(Outcome.TIMEOUT);
        assertThat(BedrockErrors.outcome(424, "ModelErrorException", "{}")).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(BedrockErrors.outcome(400, "ValidationException", "{}")).isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(BEDROCK.streamErrorOutcome("ModelStreamErrorException")).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(BEDROCK.streamErrorOutcome("ThrottlingException")).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void callersCannotSpeakBedrock() {
        assertThat(BEDROCK.spokenBy("/model/x/converse", io.vertx.core.MultiMap.caseInsensitiveMultiMap())).isFalse();
        assertThatThrownBy(() -> BEDROCK.parseRequest(new JsonObject()))
                .hasMessageContaining("does not accept Bedrock's Converse API");
    }
}
