package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The token bound never undercounts, in any encoding and for any text, and is far tighter than the
 * four tokens per char that bounded a request before.
 */
class TokenBoundPropertyTest {

    private static final List<TokenCounter> COUNTERS = List.of(TiktokenCounter.o200k(), TiktokenCounter.cl100k(),
            EstimatingTokenCounter.standard(), TokenCounter.forModel("gpt-4o"), TokenCounter.forModel("claude-sonnet-4"));

    // Texts built from the chars the bound's argument distinguishes, so that every pattern rule
    // (contractions, camelCase, slashes after newlines, runs of spaces) meets its edge cases.
    private static final String TRICKY = "aAzZsStTlLmMdDrReEvV'\"/ \t\n\r.,;:(){}[]<>=+-*&|!?#@$%^~`_\\09"
            + "\u00e9\u00df\u4e2d\u6587\u0416\ud83d\ude00\u0301\u000b\u00a0";

    @Property(tries = 400)
    void neverUndercountsTrickyText(@ForAll("tricky") String text) {
        assertBoundsTheCount(text);
    }

    @Property(tries = 200)
    void neverUndercountsAnyText(@ForAll("anyText") String text) {
        assertBoundsTheCount(text);
    }

    @Property(tries = 100)
    void neverUndercountsAMessageOrConversation(@ForAll("tricky") String text, @ForAll("anyText") String input) {
        Conversation conversation = Conversation.of(Message.system(text), Message.user(input),
                Message.of(Role.ASSISTANT, new ToolUseBlock("call_" + text.length(), "Bash", input)),
                Message.of(Role.TOOL, new ToolResultBlock("call_1", text + input, false)));

        for (TokenCounter counter : COUNTERS) {
            assertThat(counter.upperBoundConversation(conversation)).as(counter.toString())
                    .isGreaterThanOrEqualTo(counter.countConversation(conversation));
        }
    }

    @Test
    void boundsCodeByFourFifthsOfItsBytesAtMost() {
        String code = """
                public final class Ladder {
                    private final long windowTokens;   // the model's context window
                    int levelOf(long used) { return used * 100 >= windowTokens * 70 ? 1 : 0; }
                }
                """.repeat(40);

        for (TokenCounter counter : List.of(TiktokenCounter.o200k(), TiktokenCounter.cl100k())) {
            assertThat(counter.upperBoundText(code)).as(counter.toString())
                    .isGreaterThanOrEqualTo(counter.countText(code))
                    .isLessThan(code.length() * 4 / 5);
        }
    }

    @Test
    void theEmptyTextIsBoundedByNothing() {
        for (TokenCounter counter : COUNTERS) {
            assertThat(counter.upperBoundText("")).isZero();
        }
    }

    private static void assertBoundsTheCount(String text) {
        for (TokenCounter counter : COUNTERS) {
            assertThat(counter.upperBoundText(text)).as(counter + " on " + escaped(text))
                    .isGreaterThanOrEqualTo(counter.countText(text));
        }
        assertThat(TiktokenCounter.cl100k().upperBoundText(text)).isLessThanOrEqualTo(3 * text.length());
    }

    @Provide
    Arbitrary<String> tricky() {
        return Arbitraries.strings().withChars(TRICKY.toCharArray()).ofMinLength(0).ofMaxLength(60)
                .filter(TokenBoundPropertyTest::isWellFormed);
    }

    @Provide
    Arbitrary<String> anyText() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ascii().ofMaxLength(200),
                Arbitraries.strings().all().ofMaxLength(80),
                Arbitraries.strings().withChars("ab '\n".toCharArray()).ofMaxLength(200),
                Arbitraries.strings().withChars(" \t\n/(){};".toCharArray()).ofMaxLength(200))
                .filter(TokenBoundPropertyTest::isWellFormed);
    }

    // A lone surrogate is not text: the encoder refuses it ("Input is not UTF-8") rather than count it.
    private static boolean isWellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c) : String.format("\\u%04x", c)));
        return out.toString();
    }
}
