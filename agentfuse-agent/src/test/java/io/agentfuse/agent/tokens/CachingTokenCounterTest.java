package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CachingTokenCounterTest {

    /** One token per char, and a tally of the texts it was asked to count. */
    private final AtomicInteger textsCounted = new AtomicInteger();
    private final TokenCounter characters = text -> {
        textsCounted.incrementAndGet();
        return text.length();
    };

    @Test
    void countsAResentConversationOnlyForItsNewMessages() {
        // Given a counter that has counted a conversation once
        CachingTokenCounter counter = new CachingTokenCounter(characters, 64);
        Conversation first = Conversation.of(Message.system("be brief"), Message.user("hello"));
        int firstCount = counter.countConversation(first);
        textsCounted.set(0);

        // When the same conversation comes back with one more turn
        Conversation next = first.append(Message.assistant("hi there")).append(Message.user("and now?"));
        int nextCount = counter.countConversation(next);

        // Then only the two new messages were counted, and the answer is the base's
        assertThat(textsCounted).hasValue(2);
        assertThat(firstCount).isEqualTo(characters.countConversation(first));
        assertThat(nextCount).isEqualTo(characters.countConversation(next));
    }

    @Test
    void remembersTheBoundsOfLongTextsAndBoundsShortOnesAfresh() {
        // Given a base that tallies the texts it bounds
        AtomicInteger bounded = new AtomicInteger();
        TokenCounter base = boundingPerChar(2, bounded);
        CachingTokenCounter counter = new CachingTokenCounter(base, 64);
        String longText = "x".repeat(CachingTokenCounter.REMEMBERED_BOUND_CHARS);
        String otherLongText = "y".repeat(CachingTokenCounter.REMEMBERED_BOUND_CHARS);

        // When each is bounded twice
        for (int i = 0; i < 2; i++) {
            assertThat(counter.upperBoundText(longText)).isEqualTo(2 * longText.length());
            assertThat(counter.upperBoundText(otherLongText)).isEqualTo(2 * otherLongText.length());
            assertThat(counter.upperBoundText("short")).isEqualTo(10);
        }

        // Then the long texts went to the base once each, the short one every time
        assertThat(bounded).hasValue(4);
    }

    @Test
    void knowsALongTextAgainByIdentityAndAnEqualCopyByContent() {
        // Given a base that bounds at three per char
        TokenCounter base = boundingPerChar(3, new AtomicInteger());
        CachingTokenCounter counter = new CachingTokenCounter(base, 64);
        String text = "ab".repeat(CachingTokenCounter.REMEMBERED_BOUND_CHARS);
        String copy = new String(text.toCharArray());
        String sameLengthOther = "ba".repeat(CachingTokenCounter.REMEMBERED_BOUND_CHARS) + "";

        // When the very text, an equal copy and another text of its length are bounded, twice over
        for (int i = 0; i < 2; i++) {
            // Then each gets the base's bound: identity never stands in for content
            assertThat(counter.upperBoundText(text)).isEqualTo(3 * text.length());
            assertThat(counter.upperBoundText(copy)).isEqualTo(3 * copy.length());
            assertThat(counter.upperBoundText(sameLengthOther + "x")).isEqualTo(3 * (text.length() + 1));
        }
    }

    @Test
    void tellsApartMessagesThatDifferOnlyInRoleOrWhereTheirTextSplits() {
        CachingTokenCounter counter = new CachingTokenCounter(TiktokenCounter.o200k(), 64);
        Message split = Message.of(Role.ASSISTANT, new ToolUseBlock("id", "Bash", "{}"));
        Message moved = Message.of(Role.ASSISTANT, new ToolUseBlock("i", "dBash", "{}"));

        assertThat(counter.countMessage(Message.user("hello world"))).isEqualTo(5);
        assertThat(counter.countMessage(Message.system("hello world"))).isEqualTo(5);
        assertThat(counter.countMessage(split)).isEqualTo(TiktokenCounter.o200k().countMessage(split));
        assertThat(counter.countMessage(moved)).isEqualTo(TiktokenCounter.o200k().countMessage(moved));
        assertThat(counter.countMessage(Message.user("hello world!"))).isEqualTo(6);
    }

    @Test
    void tellsApartAToolResultWithAnImageFromTheSameResultWithout() {
        CachingTokenCounter counter = new CachingTokenCounter(TiktokenCounter.o200k(), 64);
        Message text = Message.of(Role.USER, new ToolResultBlock("id", "shot.png", false));
        Message withImage = Message.of(Role.USER, new ToolResultBlock("id", "shot.png", false,
                List.of(new RawBlock(RawBlock.IMAGE, "{\"url\":\"https://example.com/shot.png\"}"))));

        assertThat(counter.countMessage(text)).isEqualTo(TiktokenCounter.o200k().countMessage(text));
        assertThat(counter.countMessage(withImage)).isEqualTo(TiktokenCounter.o200k().countMessage(withImage))
                .isEqualTo(counter.countMessage(text) + TokenCounter.IMAGE_TOKENS);
    }

    @Test
    void staysExactWhenFarMoreMessagesPassThanItRemembers() {
        CachingTokenCounter counter = new CachingTokenCounter(characters, 4);

        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 200; i++) {
                Message message = Message.user("message number " + i);
                assertThat(counter.countMessage(message)).isEqualTo(characters.countMessage(message));
            }
        }
    }

    @Test
    void boundsARememberedMessageByItsExactCount() {
        CachingTokenCounter counter = new CachingTokenCounter(TiktokenCounter.o200k(), 64);
        Message message = Message.user("public static void main(String[] args) { run(); }");

        int before = counter.upperBoundMessage(message);
        int exact = counter.countMessage(message);

        assertThat(before).isGreaterThanOrEqualTo(exact);
        assertThat(counter.upperBoundMessage(message)).isEqualTo(exact);
    }

    @Test
    void givesEveryThreadTheExactCount() throws Exception {
        CachingTokenCounter counter = new CachingTokenCounter(TiktokenCounter.cl100k(), 16);
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            messages.add(Message.user("line " + i + ": " + "x = y + ".repeat(i)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 20; round++) {
                        for (Message message : messages) {
                            if (counter.countMessage(message) != TiktokenCounter.cl100k().countMessage(message)) {
                                return false;
                            }
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void forModelSharesOneCounterPerEncodingAndImageAccounting() {
        assertThat(TokenCounter.forModel("gpt-4o")).isSameAs(TokenCounter.forModel("o3"))
                .isInstanceOf(CachingTokenCounter.class);
        assertThat(TokenCounter.forModel("claude-sonnet-4")).isSameAs(TokenCounter.forModel("claude-haiku-4-5"));
        // A remembered count holds the message's images as one accounting counts them: not shared across them.
        assertThat(TokenCounter.forModel("claude-sonnet-4")).isNotSameAs(TokenCounter.forModel("gemini-2.5-pro"));
        assertThat(TokenCounter.forModel("gpt-4o")).isNotSameAs(TokenCounter.forModel("gpt-4.1-mini"));
        TokenCounter base = ((CachingTokenCounter) TokenCounter.forModel("claude-haiku-4")).base();
        assertThat(((ImageAccountingCounter) base).base()).isSameAs(EstimatingTokenCounter.standard());
    }

    @Test
    void rejectsACapacityOutOfRange() {
        assertThatThrownBy(() -> new CachingTokenCounter(characters, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("capacity must be in [1, 16777216], but was 0");
    }

    /** A base that counts one token per char, bounds {@code perChar} per char, and tallies its bounds in {@code bounded}. */
    private static TokenCounter boundingPerChar(int perChar, AtomicInteger bounded) {
        return new TokenCounter() {
            @Override
            public int countText(String text) {
                return text.length();
            }

            @Override
            public int upperBoundText(String text) {
                bounded.incrementAndGet();
                return perChar * text.length();
            }
        };
    }
}
