package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent with extended thinking on a fixed budget (Claude Code on Claude Sonnet 4.5 sends
 * {@code thinking: {type: enabled, budget_tokens}}) whose tool call came from GPT while both Claudes
 * failed: the next request of that tool-use turn, back on Claude, has a final assistant message that
 * starts with the {@code tool_use} and no thinking — there is none to give back, and no signature can
 * be made up. The Messages API refuses it (400 {@code Expected `thinking` or `redacted_thinking`, but
 * found `tool_use`}), and every retry of it, so the agent was stuck until it gave up the turn. Now that
 * request goes to Claude without {@code thinking} (and without the edit that clears thinking, which the
 * API takes only with thinking on); a turn that starts with its thinking, and adaptive thinking, go as
 * they came.
 */
class ThinkingAfterFallbackScenarioTest {

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(GatewayHarness.configWithPrimary("firstTokenTimeout: 5s"));
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void theTurnGptAnsweredGoesBackToClaudeWithoutThinkingAndIsServed() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).build());
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder()
                .toolCall("call_1", "read_file", new JsonObject().put("path", "README.md")).build());
        Reply first = harness.client.post("/v1/messages", turn(enabled(), new JsonArray().add(user("Read the README."))));
        assertThat(first.header("x-agentfuse-model")).as(first.body()).isEqualTo("gpt-4o-mini");
        JsonObject answered = new JsonObject().put("role", "assistant").put("content", first.json().getJsonArray("content"));
        assertThat(answered.getJsonArray("content").stream().map(block -> ((JsonObject) block).getString("type")))
                .as(first.body()).contains("tool_use").doesNotContain("thinking", "redacted_thinking");

        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("It is a gateway.").build());
        Reply next = harness.client.post("/v1/messages", turn(enabled(), toolLoop(answered)));

        assertThat(next.status()).as(next.body()).isEqualTo(200);
        assertThat(next.header("x-agentfuse-model")).isEqualTo("claude-sonnet-4");
        JsonObject sent = lastSentTo("claude-sonnet-4-5");
        assertThat(sent.containsKey("thinking")).as("thinking dropped for this step").isFalse();
        assertThat(sent.containsKey("context_management")).as("its one edit clears thinking").isFalse();
        assertThat(sent.getJsonArray("messages")).isEqualTo(toolLoop(answered));
    }

    @Test
    void aTurnThatStartsWithItsThinkingKeepsThinking() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("It is a gateway.").build());
        JsonObject thought = new JsonObject().put("role", "assistant").put("content", new JsonArray()
                .add(new JsonObject().put("type", "thinking").put("thinking", "Read it.").put("signature", "sig-1"))
                .add(toolUse()));

        Reply reply = harness.client.post("/v1/messages", turn(enabled(), toolLoop(thought)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject sent = lastSentTo("claude-sonnet-4-5");
        assertThat(sent.getJsonObject("thinking")).isEqualTo(enabled());
        assertThat(sent.getJsonObject("context_management")).isNotNull();
    }

    @Test
    void adaptiveThinkingIsSentAsItCame() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("It is a gateway.").build());
        JsonObject adaptive = new JsonObject().put("type", "adaptive");
        JsonObject unthought = new JsonObject().put("role", "assistant").put("content", new JsonArray().add(toolUse()));

        Reply reply = harness.client.post("/v1/messages", turn(adaptive, toolLoop(unthought)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(lastSentTo("claude-sonnet-4-5").getJsonObject("thinking")).isEqualTo(adaptive);
    }

    private JsonObject lastSentTo(String upstreamModel) {
        return harness.mock.requests().stream().map(RecordedRequest::jsonBody).flatMap(java.util.Optional::stream)
                .filter(body -> upstreamModel.equals(body.getString("model"))).reduce((a, b) -> b).orElseThrow();
    }

    /** A request as Claude Code writes one: thinking, the edit that clears it, a tool, {@code messages}. */
    private static JsonObject turn(JsonObject thinking, JsonArray messages) {
        return new JsonObject().put("model", "claude-sonnet-4").put("max_tokens", 4096).put("thinking", thinking)
                .put("context_management", new JsonObject().put("edits", new JsonArray()
                        .add(new JsonObject().put("type", "clear_thinking_20251015").put("keep", "all"))))
                .put("tools", new JsonArray().add(new JsonObject().put("name", "read_file").put("description", "Reads a file.")
                        .put("input_schema", new JsonObject().put("type", "object").put("properties", new JsonObject()
                                .put("path", new JsonObject().put("type", "string"))))))
                .put("messages", messages);
    }

    private static JsonObject enabled() {
        return new JsonObject().put("type", "enabled").put("budget_tokens", 1024);
    }

    /** The question, {@code assistant}'s tool call, and the tool's result. */
    private static JsonArray toolLoop(JsonObject assistant) {
        String id = assistant.getJsonArray("content").stream().map(JsonObject.class::cast)
                .filter(block -> "tool_use".equals(block.getString("type"))).findFirst().orElseThrow().getString("id");
        return new JsonArray().add(user("Read the README.")).add(assistant).add(new JsonObject().put("role", "user")
                .put("content", new JsonArray().add(new JsonObject().put("type", "tool_result").put("tool_use_id", id)
                        .put("content", "agentfuse: circuit breakers for agents"))));
    }

    private static JsonObject toolUse() {
        return new JsonObject().put("type", "tool_use").put("id", "toolu_1").put("name", "read_file")
                .put("input", new JsonObject().put("path", "README.md"));
    }

    private static JsonObject user(String text) {
        return new JsonObject().put("role", "user").put("content", text);
    }
}
