package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import org.junit.jupiter.api.Test;

class UsageAwareTokenCounterTest {

    private final TokenCounter characters = String::length;
    private final UsageAwareTokenCounter counter = new UsageAwareTokenCounter(characters);
    private final Conversation sent = Conversation.of(Message.system("be brief"), Message.user("hello"));

    @Test
    void countsWithTheBaseUntilAProviderReportsUsage() {
        assertThat(counter.countConversation(sent)).isEqualTo(characters.countConversation(sent));
    }

    @Test
    void trustsTheReportedPromptTokensForTheConversationThatWasSent() {
        counter.recordPromptTokens(sent, 1_200);

        assertThat(counter.countConversation(sent)).isEqualTo(1_200);
    }

    @Test
    void addsTheBaseCountOfMessagesAddedSinceTheReport() {
        counter.recordPromptTokens(sent, 1_200);
        Message reply = Message.assistant("hi there");
        Message next = Message.user("and now?");

        int tokens = counter.countConversation(sent.append(reply).append(next));

        assertThat(tokens).isEqualTo(1_200 + (3 + 8) + (3 + 8));
    }

    @Test
    void fallsBackToTheBaseForAConversationThatNoLongerStartsWithTheReport() {
        counter.recordPromptTokens(sent, 1_200);
        Conversation compacted = Conversation.of(Message.system("be brief"), Message.user("summary"));

        assertThat(counter.countConversation(compacted)).isEqualTo(characters.countConversation(compacted));
    }

    @Test
    void rejectsNegativeUsage() {
        assertThatThrownBy(() -> counter.recordPromptTokens(sent, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("promptTokens must be >= 0, but was -1");
    }
}
