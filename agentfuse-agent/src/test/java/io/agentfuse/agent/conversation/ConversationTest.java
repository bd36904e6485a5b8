package io.agentfuse.agent.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConversationTest {

    @Test
    void isNotChangedByChangesToTheListItWasMadeFrom() {
        List<Message> messages = new ArrayList<>(List.of(Message.user("hello")));
        Conversation conversation = new Conversation(messages);

        messages.add(Message.assistant("hi"));

        assertThat(conversation.size()).isEqualTo(1);
        assertThatThrownBy(() -> conversation.messages().add(Message.user("x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void appendingLeavesTheOriginalAsItWas() {
        Conversation conversation = Conversation.of(Message.user("hello"));

        Conversation longer = conversation.append(Message.assistant("hi"));

        assertThat(conversation.size()).isEqualTo(1);
        assertThat(longer.size()).isEqualTo(2);
        assertThat(longer.startsWith(conversation)).isTrue();
        assertThat(conversation.startsWith(longer)).isFalse();
    }

    @Test
    void equalMessagesMakeEqualConversations() {
        assertThat(Conversation.of(Message.user("hello"), Message.assistant("hi")))
                .isEqualTo(Conversation.of(Message.user("hello"), Message.assistant("hi")))
                .isNotEqualTo(Conversation.of(Message.user("hello"), Message.assistant("hi").pin()));
    }

    @Test
    void aUserMessageOfToolResultsOnlyIsNotAPrompt() {
        Message results = Message.of(Role.USER, new ToolResultBlock("t1", "ok", false));
        Message mixed = Message.of(Role.USER, new ToolResultBlock("t1", "ok", false), new TextBlock("and now?"));

        assertThat(results.isPrompt()).isFalse();
        assertThat(mixed.isPrompt()).isTrue();
        assertThat(Message.assistant("hi").isPrompt()).isFalse();
    }

    @Test
    void exposesTheToolIdsItCallsAndAnswers() {
        Message call = Message.of(Role.ASSISTANT, new TextBlock("running"), new ToolUseBlock("t1", "Bash", "{}"),
                new ToolUseBlock("t2", "Read", "{}"));
        Message answer = Message.of(Role.TOOL, new ToolResultBlock("t2", "text", true));

        assertThat(call.toolUseIds()).containsExactly("t1", "t2");
        assertThat(call.text()).isEqualTo("running");
        assertThat(answer.toolResultIds()).containsExactly("t2");
    }

    @Test
    void keepsUninterpretedProviderFields() {
        Message message = new Message(Role.USER, List.of(new TextBlock("hi")), false,
                Map.of("cache_control", "{\"type\":\"ephemeral\"}"));

        assertThat(message.pin().extras()).containsEntry("cache_control", "{\"type\":\"ephemeral\"}");
    }
}
