package io.agentfuse.gateway.provider.anthropic;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What of {@code context_management} goes with a tool-use turn sent without thinking: the edits that
 * clear thinking go (the API takes them only with thinking on), the others stay, and no empty list of
 * edits is written.
 */
class ThinkingRequirementTest {

    private static final JsonObject CLEAR_THINKING = new JsonObject().put("type", "clear_thinking_20251015").put("keep", "all");
    private static final JsonObject CLEAR_TOOL_USES = new JsonObject().put("type", "clear_tool_uses_20250919");

    @Test
    void theEditsThatClearThinkingGoAndTheOthersStay() {
        JsonObject fitted = ThinkingRequirement.fit(unthoughtTurn(new JsonObject()
                .put("edits", new JsonArray().add(CLEAR_THINKING).add(CLEAR_TOOL_USES))));

        assertThat(fitted.containsKey("thinking")).isFalse();
        assertThat(fitted.getJsonObject("context_management").getJsonArray("edits")).containsExactly(CLEAR_TOOL_USES);
    }

    @Test
    void noEmptyListOfEditsIsWrittenWhereOtherSettingsStay() {
        JsonObject fitted = ThinkingRequirement.fit(unthoughtTurn(new JsonObject()
                .put("edits", new JsonArray().add(CLEAR_THINKING)).put("trigger", "auto")));

        assertThat(fitted.getJsonObject("context_management")).isEqualTo(new JsonObject().put("trigger", "auto"));
    }

    /** A request with thinking on a budget whose final assistant message calls a tool without thinking. */
    private static JsonObject unthoughtTurn(JsonObject management) {
        JsonArray messages = new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Read it."))
                .add(new JsonObject().put("role", "assistant").put("content", new JsonArray().add(new JsonObject()
                        .put("type", "tool_use").put("id", "toolu_1").put("name", "read_file").put("input", new JsonObject()))))
                .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(new JsonObject()
                        .put("type", "tool_result").put("tool_use_id", "toolu_1").put("content", "text"))));
        return new JsonObject().put("model", "claude-sonnet-4-5").put("max_tokens", 4096)
                .put("thinking", new JsonObject().put("type", "enabled").put("budget_tokens", 1024))
                .put("context_management", management).put("messages", messages);
    }
}
