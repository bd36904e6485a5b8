package io.agentfuse.agent.context;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The shortcut through the token bound never changes a level the ladder decides. */
class CompactorLevelPropertyTest {

    @Property(tries = 60)
    void theLevelIsTheOneCountingGives(@ForAll @IntRange(min = 0, max = 60) int turns,
                                       @ForAll @IntRange(min = 200, max = 20_000) int window) {
        Conversation conversation = codingConversation(turns);
        for (String model : new String[] {"gpt-4o", "gpt-4", "claude-sonnet-4"}) {
            TokenCounter counter = TokenCounter.forModel(model);
            ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), window);
            Compactor compactor = Compactor.builder(budget, counter).build();

            assertThat(compactor.levelOf(conversation)).as(model + ", window " + window)
                    .isEqualTo(budget.levelOf(counter.countConversation(conversation)));
        }
    }

    @Test
    void aConversationWhoseBoundIsWellWithinTheWindowIsNotCounted() {
        AtomicInteger counted = new AtomicInteger();
        TokenCounter counter = new TokenCounter() {
            @Override
            public int countText(String text) {
                counted.incrementAndGet();
                return text.length();
            }

            @Override
            public int upperBoundText(String text) {
                return text.length();
            }
        };
        Compactor compactor = Compactor.builder(ContextBudget.of(ContextConfig.defaults(), 1_000), counter).build();

        assertThat(compactor.levelOf(Conversation.of(Message.user("x".repeat(600))))).isEqualTo(ContextLevel.NORMAL);
        assertThat(counted).hasValue(0);
        assertThat(compactor.levelOf(Conversation.of(Message.user("x".repeat(700))))).isEqualTo(ContextLevel.WARNING);
        assertThat(counted).hasValue(1);
    }

    private static Conversation codingConversation(int turns) {
        List<Message> messages = new ArrayList<>();
        messages.add(Message.system("You are a coding agent. Answer with diffs."));
        for (int i = 0; i < turns; i++) {
            messages.add(Message.user("Fix test " + i + " in LadderTest.java, it's failing: expected:<" + i + ">"));
            messages.add(Message.assistant("```java\nint levelOf(long used) {\n    return used >= start(" + i
                    + ") ? WARNING : NORMAL;   // don't round\n}\n```"));
        }
        return new Conversation(messages);
    }
}
