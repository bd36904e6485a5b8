package io.agentfuse.gateway.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link AnswerShape#excerpt} reads only as far as it shows, and shows what its first form showed:
 * the text with each run of white space one space, trimmed, cut at 60 characters.
 */
class AnswerShapeExcerptPropertyTest {

    /** The first form: the whole text collapsed and trimmed, then cut. */
    private static String collapsedWhole(String text) {
        String line = text.replaceAll("\\s+", " ").trim();
        return line.isEmpty() ? "(blank)" : "'" + (line.length() > 60 ? line.substring(0, 60) + "…" : line) + "'";
    }

    @Property(tries = 3_000)
    void showsWhatCollapsingTheWholeTextShowed(@ForAll("texts") String text) {
        assertThat(AnswerShape.excerpt(text)).isEqualTo(collapsedWhole(text));
    }

    @Provide
    Arbitrary<String> texts() {
        // Letters, each kind of white space, control chars that are not white space, and a few others.
        return Arbitraries.strings().withChars("ab \t\n\u000B\f\r\u0001\u001Fé{\"").ofMinLength(0).ofMaxLength(150);
    }

    @Test
    void aTextOfMegabytesIsShownByItsStart() {
        String text = "  {\"error\":\n   " + "x".repeat(8 << 20);

        assertThat(AnswerShape.excerpt(text)).isEqualTo("'{\"error\": " + "x".repeat(50) + "…'");
    }
}
