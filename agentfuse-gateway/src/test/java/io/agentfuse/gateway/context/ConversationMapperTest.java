package io.agentfuse.gateway.context;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConversationMapperTest {

    @Test
    void theBoundKnownAtOnceIsTheBoundOnceEveryTextWasBounded() {
        // Given a conversation with a tool call and its result, never bounded
        TokenCounter counter = TokenCounter.forModel("claude-haiku-4-5");
        String code = "int main() { return 0; }\n".repeat(40);
        ChatRequest request = Dialects.OPENAI.parseRequest(new JsonObject().put("model", "m").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "system").put("content", "Be brief. " + code))
                .add(new JsonObject().put("role", "user").put("content", "Compile this: " + code))
                .add(new JsonObject().put("role", "assistant").putNull("content").put("tool_calls", new JsonArray()
                        .add(new JsonObject().put("id", "call_1").put("type", "function").put("function",
                                new JsonObject().put("name", "compile").put("arguments", "{\"source\":\"" + code.replace("\n", "\\n") + "\"}")))))
                .add(new JsonObject().put("role", "tool").put("tool_call_id", "call_1").put("content", "ok " + code))));

        // Then it is not known at once before, and is the very bound after
        assertThat(ConversationMapper.knownUpperBound(request, counter)).isEqualTo(-1);
        long bound = ConversationMapper.upperBound(request, counter);
        assertThat(ConversationMapper.knownUpperBound(request, counter)).isEqualTo(bound);
    }

    @Test
    void toolCallsAndTheirResultsKeepTheirIdsSoSnippingCanKeepThemTogether() {
        ChatRequest request = Dialects.OPENAI.parseRequest(new JsonObject()
                .put("model", "gpt-4o")
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "system").put("content", "Be brief."))
                        .add(new JsonObject().put("role", "user").put("content", "Weather in Paris?"))
                        .add(new JsonObject().put("role", "assistant").putNull("content").put("tool_calls", new JsonArray()
                                .add(new JsonObject().put("id", "call_1").put("type", "function").put("function",
                                        new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":\"Paris\"}")))))
                        .add(new JsonObject().put("role", "tool").put("tool_call_id", "call_1").put("content", "18 C"))));

        Conversation conversation = ConversationMapper.toConversation(request);

        assertThat(conversation.messages()).extracting(Message::role)
                .containsExactly(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER);
        assertThat(conversation.get(2).content()).containsExactly(new ToolUseBlock("call_1", "get_weather", "{\"city\":\"Paris\"}"));
        assertThat(conversation.get(3).content()).containsExactly(new ToolResultBlock("call_1", "18 C", false));
    }

    @Test
    void anAnthropicBodyGetsTheNewSystemAndMessagesAndKeepsItsOtherFields() {
        // Given an Anthropic request with metadata and a system prompt
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(new JsonObject()
                .put("model", "claude-haiku-4").put("max_tokens", 256).put("system", "Be brief.")
                .put("metadata", new JsonObject().put("user_id", "u-1"))
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "first question"))
                        .add(new JsonObject().put("role", "assistant").put("content", "first answer"))
                        .add(new JsonObject().put("role", "user").put("content", "second question"))));

        // When its conversation is replaced by a shorter one
        Conversation shorter = new Conversation(List.of(Message.system("Be brief."),
                Message.user("[agentfuse] 2 earlier messages were removed to fit the context window."),
                Message.user("second question")));
        ChatRequest compacted = ConversationMapper.withConversation(request, shorter);

        // Then the body carries the new messages, the system prompt and the untouched metadata
        JsonObject body = compacted.original();
        assertThat(body.getString("system")).isEqualTo("Be brief.");
        assertThat(body.getJsonObject("metadata").getString("user_id")).isEqualTo("u-1");
        assertThat(body.getInteger("max_tokens")).isEqualTo(256);
        assertThat(body.getJsonArray("messages").encode()).contains("[agentfuse] 2 earlier").contains("second question")
                .doesNotContain("first answer");
        assertThat(compacted.messages()).hasSize(2);
    }
}
