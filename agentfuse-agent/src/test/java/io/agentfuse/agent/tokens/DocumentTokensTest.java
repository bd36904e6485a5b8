package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DocumentTokensTest {

    private static String pdf(int bytes) {
        return "data:application/pdf;base64," + "A".repeat(bytes / 3 * 4);
    }

    @Test
    void aOneMegabytePdfCountsItsGuessedPagesNotTheTextOfItsBase64() {
        int tokens = DocumentTokens.of(pdf(1_048_575));

        assertThat(tokens).isEqualTo(18 * DocumentTokens.TOKENS_PER_PAGE);
        assertThat(TokenCounter.forModel("claude-sonnet-4-5").countText(pdf(1_048_575))).isGreaterThan(5 * tokens);
    }

    @Test
    void aSmallPdfIsOnePageAndAHugeOneAtMostTheMostPagesAProviderTakes() {
        assertThat(DocumentTokens.of(pdf(300))).isEqualTo(DocumentTokens.TOKENS_PER_PAGE);
        assertThat(DocumentTokens.of(pdf(30_000_000))).isEqualTo(DocumentTokens.MAX_PAGES * DocumentTokens.TOKENS_PER_PAGE);
    }

    @Test
    void aDocumentWithoutItsDataCountsTheGuessForAnUnknownDocument() {
        assertThat(DocumentTokens.of("{\"url\":\"https://example.com/spec.pdf\",\"title\":\"spec\"}"))
                .isEqualTo(DocumentTokens.UNKNOWN_PAGES * DocumentTokens.TOKENS_PER_PAGE);
    }

    @Test
    void aRawDocumentBlockIsCountedByItsPagesByEveryCounter() {
        String json = "{\"url\":\"" + pdf(200_000) + "\",\"title\":\"spec.pdf\"}";
        Message message = Message.of(Role.USER, new RawBlock(RawBlock.DOCUMENT, json));

        for (TokenCounter counter : new TokenCounter[] {String::length, TokenCounter.forModel("gpt-4o"),
                TokenCounter.forModel("claude-sonnet-4-5")}) {
            assertThat(counter.countMessage(message)).isEqualTo(TokenCounter.TOKENS_PER_MESSAGE + 4 * DocumentTokens.TOKENS_PER_PAGE);
            assertThat(counter.upperBoundMessage(message)).isEqualTo(counter.countMessage(message));
        }
    }

    @Property
    void moreBytesNeverCountFewerTokens(@ForAll @LongRange(min = 0, max = 40_000_000) long bytes,
                                        @ForAll @LongRange(min = 0, max = 1_000_000) long more) {
        assertThat(DocumentTokens.ofBytes(bytes + more)).isGreaterThanOrEqualTo(DocumentTokens.ofBytes(bytes))
                .isBetween(DocumentTokens.TOKENS_PER_PAGE, DocumentTokens.MAX_PAGES * DocumentTokens.TOKENS_PER_PAGE);
    }

    @Test
    void readsTheBase64OfADocumentHeldApartFromItsMediaTypeByItsLength() {
        String base64 = pdf(1_048_575).substring("data:application/pdf;base64,".length());

        assertThat(DocumentTokens.ofBase64(base64)).isEqualTo(DocumentTokens.of(pdf(1_048_575))).isEqualTo(18 * DocumentTokens.TOKENS_PER_PAGE);
        assertThat(DocumentTokens.ofBase64(java.nio.CharBuffer.wrap(base64, 0, 400))).isEqualTo(DocumentTokens.TOKENS_PER_PAGE);
    }
}
