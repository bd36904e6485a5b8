package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * A long text is counted in pieces of bounded length, with no run of one kind of char longer than
 * the tokenizer merges cheaply: exactly as the whole text where it has spaces, and without ever
 * splitting a surrogate pair (which the encoder would refuse) where it has none.
 */
class CountingPiecesTest {

    private static final EncodingRegistry WHOLE = Encodings.newLazyEncodingRegistry();
    /** Words of chars the split's rules tell apart, spaces excepted: contractions, digits, punctuation, CJK, emoji, marks. */
    private static final String WORD_CHARS = "aAzZsStTlLmMdDeE'\"/.,;:(){}<>=+-*&|!?#_\\09\u00e9\u00df\u4e2d\u6587\u0416\u0301";
    private static final List<String> SEPARATORS = List.of(" ", "  ", "\n", "\t", " \n ", "\r\n", ", ", "\u00a0", "\u3000");

    @Property(tries = 30)
    void aLongTextWithSpacesCountsAsTheWholeText(@ForAll("longText") String text) {
        assertThat(text.length()).isGreaterThan(2 * CountingPieces.MAX_CHARS);
        for (EncodingType type : List.of(EncodingType.O200K_BASE, EncodingType.CL100K_BASE)) {
            assertThat(TiktokenCounter.of(type).countText(text)).as(type.getName())
                    .isEqualTo(WHOLE.getEncoding(type).countTokensOrdinary(text));
        }
    }

    @Property(tries = 30)
    void theBoundStillCoversTheCountOfAStretchCutWithoutASpace(@ForAll("spacelessText") String text) {
        // Hard cuts may add a token or two to the count; the bound, read over the whole text, must stay above it.
        for (TokenCounter counter : List.of(TiktokenCounter.o200k(), TiktokenCounter.cl100k())) {
            assertThat(counter.upperBoundText(text)).as(counter.toString()).isGreaterThanOrEqualTo(counter.countText(text));
        }
    }

    @Property(tries = 200)
    void piecesCoverTheTextWithinTheLimitsAndKeepSurrogatePairsWhole(@ForAll("spacelessText") String text) {
        int pieces = 0;
        for (int start = 0, end; start < text.length(); start = end, pieces++) {
            end = CountingPieces.end(text, start);
            assertThat(end - start).isBetween(1, CountingPieces.MAX_CHARS);
            assertThat(Character.isLowSurrogate(text.charAt(end - 1)) || !Character.isHighSurrogate(text.charAt(end - 1)))
                    .as("a piece ends between the halves of a surrogate pair at %d", end).isTrue();
            assertThat(longestRunOfOneKind(text.substring(start, end)))
                    .as("the longest run of one kind of char but digits in [%d, %d)", start, end)
                    .isLessThanOrEqualTo(CountingPieces.MAX_RUN);
        }
        assertThat(pieces).isGreaterThanOrEqualTo(text.length() / CountingPieces.MAX_CHARS);
    }

    @Test
    void aLongRunOfOneKindIsCutAfterTheLongestRunCountedAtOnce() {
        for (String unit : List.of("x", "\u4e2d", "-", " ", "\n", "\u00e9\u0301")) {
            String text = "1" + unit.repeat(10 * CountingPieces.MAX_RUN);

            int end = CountingPieces.end(text, 0);

            assertThat(end).as("a run of %s", unit).isEqualTo(1 + CountingPieces.MAX_RUN);
        }
    }

    @Test
    void aLongRunIsCutAtTheLastSpaceBeforeItWhenThePieceHasOne() {
        String text = "some words, then " + "x".repeat(10 * CountingPieces.MAX_RUN);

        int beforeTheRun = "some words, then".length();

        assertThat(CountingPieces.end(text, 0)).isEqualTo(beforeTheRun);
        assertThat(CountingPieces.end(text, beforeTheRun)).isEqualTo(beforeTheRun + 1 + CountingPieces.MAX_RUN);
    }

    @Test
    void aLongRunOfDigitsIsNotCutBeforeTheLimit() {
        // The split takes digits three at a time from the start of their run: a cut inside it would shift the groups.
        String digits = "1234567890".repeat(1000);

        assertThat(CountingPieces.end(digits, 0)).isEqualTo(CountingPieces.MAX_CHARS);
    }

    @Test
    void countingALongRunOfOneKindAllocatesInProportionToItsLength() {
        // Counted in 4 096-char pieces, a million chars of one kind allocated 455 (letters) to 725 (Chinese)
        // bytes a char: jtokkit's merge structure for pieces over 500 bytes. In runs of MAX_RUN: 5 to 203.
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (String unit : List.of("x", " ", "\n", "-", "\u4e2d", "\u00e9\u0301", "\ud83d\ude00")) {
            String run = unit.repeat(1_000_000 / unit.length());
            TiktokenCounter.o200k().countText(run.substring(0, 10_000));

            long before = threads.getCurrentThreadAllocatedBytes();
            TiktokenCounter.o200k().countText(run);
            long bytesPerChar = (threads.getCurrentThreadAllocatedBytes() - before) / run.length();

            assertThat(bytesPerChar).as("bytes allocated per char of a run of %s", unit).isLessThan(300);
        }
    }

    @Test
    void aCutFallsBeforeTheLastSpaceThatFollowsANonSpace() {
        String text = "word ".repeat(1000) + "x".repeat(CountingPieces.MAX_CHARS);
        int end = CountingPieces.end(text, 0);

        assertThat(end).isEqualTo(4094); // the space of the 819th word, the last before the limit
        assertThat(text.charAt(end)).isEqualTo(' ');
        assertThat(text.charAt(end - 1)).isEqualTo('d');
    }

    @Test
    void aRunOfMillionsOfLettersCountsExactly() {
        // Eight x are one token in both encodings, and a piece holds a multiple of eight: the count is exact.
        // (Whether it fits a small heap is OversizedRequestsTest's case: this JVM's heap is large.)
        String run = "x".repeat(3_000_000);

        assertThat(TiktokenCounter.o200k().countText(run)).isEqualTo(375_000);
        assertThat(TiktokenCounter.cl100k().countText(run)).isEqualTo(375_000);
    }

    /** In chars; the kinds as the split tells them apart: letters and marks, digits, white space, the rest. */
    private static int longestRunOfOneKind(String piece) {
        int longest = 0;
        int run = 0;
        int previousKind = -1;
        for (int i = 0; i < piece.length(); ) {
            int codePoint = piece.codePointAt(i);
            int kind = Character.isLetter(codePoint) || Character.getType(codePoint) == Character.NON_SPACING_MARK ? 0
                    : Character.isDigit(codePoint) ? 1 : Character.isWhitespace(codePoint) ? 2 : 3;
            run = kind == previousKind ? run + Character.charCount(codePoint) : Character.charCount(codePoint);
            previousKind = kind;
            longest = kind == 1 ? longest : Math.max(longest, run);
            i += Character.charCount(codePoint);
        }
        return longest;
    }

    @Provide
    Arbitrary<String> longText() {
        Arbitrary<String> word = Arbitraries.strings().withChars(WORD_CHARS.toCharArray()).ofMinLength(2).ofMaxLength(12);
        Arbitrary<String> separator = Arbitraries.of(SEPARATORS);
        // Every eighth separator is one space after a word: no stretch of MAX_CHARS lacks a place to cut exactly.
        return word.list().ofSize(3000).flatMap(words -> separator.list().ofSize(words.size()).map(separators -> {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < words.size(); i++) {
                text.append(words.get(i)).append(i % 8 == 0 ? " " : separators.get(i));
            }
            return text.toString();
        }));
    }

    @Provide
    Arbitrary<String> spacelessText() {
        Arbitrary<String> unit = Arbitraries.of("x", "\u4e2d", "\ud83d\ude00", "+", "9", "\u0301");
        // Runs of one unit, long ones among them, as well as mixes of units.
        Arbitrary<String> stretch = Arbitraries.oneOf(unit, unit.flatMap(u -> Arbitraries.integers().between(1, 600).map(u::repeat)));
        return stretch.list().ofMinSize(1).ofMaxSize(40).map(stretches -> String.join("", stretches))
                .filter(text -> !text.isEmpty() && text.length() <= 3 * CountingPieces.MAX_CHARS);
    }
}
