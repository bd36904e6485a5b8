package io.agentfuse.gateway.context;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The count of a request whose earlier part a provider reported: the report plus the estimate of the
 * rest; and, for what compaction makes of it, each reported message at its share of the report.
 */
class CalibratedCounterTest {

    /** A token a char, three a message, three for the reply: exact numbers to reason with. */
    private static final TokenCounter CHARS = String::length;

    private final Conversation conversation = new Conversation(List.of(Message.system("You plan migrations."),
            Message.user("a".repeat(97)), Message.assistant("b".repeat(97)), Message.user("c".repeat(47)),
            Message.assistant("d".repeat(47)), Message.user("e".repeat(17))));
    /** The estimate of the first five messages: 3 + 23 + 100 + 100 + 50 + 50. */
    private static final long ESTIMATED_PART = 326;

    @Test
    void theRequestCountsAsTheReportPlusTheEstimateOfWhatCameAfter() {
        CalibratedCounter counter = new CalibratedCounter(CHARS, conversation, 5, 163);

        assertThat(CHARS.countConversation(new Conversation(conversation.messages().subList(0, 5))))
                .isEqualTo((int) ESTIMATED_PART);
        assertThat(CalibratedCounter.count(CHARS, conversation, 5, 163)).isEqualTo(163 + 20);
        assertThat(counter.countConversation(conversation)).isEqualTo(163 + 20);
        assertThat(counter.upperBoundConversation(conversation)).isEqualTo(163 + 20);
    }

    @Test
    void aReportedMessageCountsAsItsShareOfTheReportAndANewOneAsItsEstimate() {
        CalibratedCounter counter = new CalibratedCounter(CHARS, conversation, 5, 163); // half the estimate

        assertThat(counter.countMessage(conversation.get(1))).isEqualTo(50);
        assertThat(counter.countMessage(conversation.get(5))).isEqualTo(20);
        assertThat(counter.countMessage(Message.user("a".repeat(97)))).as("an equal message compaction wrote")
                .isEqualTo(100);
    }

    @Test
    void aConversationWithoutPartOfTheReportedMessagesCountsTheRestOfThemAtTheirShare() {
        CalibratedCounter counter = new CalibratedCounter(CHARS, conversation, 5, 652); // twice the estimate
        List<Message> snipped = new ArrayList<>(conversation.messages());
        snipped.remove(2);
        snipped.remove(1);
        snipped.add(1, Message.user("[2 removed]"));

        // (3 + 23 + 50 + 50) × 2 for what is left of the reported part, 14 + 20 for the marker and the new message
        assertThat(counter.countConversation(new Conversation(snipped))).isEqualTo(252 + 14 + 20);
    }
}
