package io.agentfuse.agent.tokens;

import com.knuddels.jtokkit.api.Encoding;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A proven upper bound on the tokens of a text in one tiktoken encoding, in one pass over its
 * chars and without the vocabulary beyond a table of two-byte tokens.
 *
 * <p>The argument, for {@code cl100k_base} and {@code o200k_base}. The encoder splits the text
 * into pieces by its pre-tokenising pattern and encodes each piece by byte-pair merging, which
 * (1) gives a piece at most one token per UTF-8 byte, and (2) stops only when no two adjacent
 * tokens of the piece concatenate to a token of the vocabulary. So the tokens of a text are its
 * bytes minus the byte boundaries that fall inside a token. Take two adjacent bytes of one piece
 * whose concatenation is a token ("a joining pair"): they cannot both end up as one-byte tokens,
 * by (2), so at least one of the three boundaries around and between them falls inside a token.
 * Joining pairs at least three chars apart have disjoint boundary triples, so each of them
 * removes a different boundary: {@code tokens <= bytes - pairs}. For ASCII text this is about two
 * thirds of its bytes, against four tokens per char before.
 *
 * <p>Which adjacent chars always share a piece follows from the encodings' patterns, taken
 * conservatively (only ASCII, and a pair the argument is not sure of is simply not used):
 * <ul>
 *   <li>two letters, unless an apostrophe is one or two chars before them (a contraction such as
 *       {@code 's} or {@code 'll} ends a piece), and, in {@code o200k_base}, unless a lower-case
 *       letter is followed by a capital (where that pattern splits {@code camelCase});</li>
 *   <li>two punctuation chars (neither letter, digit nor white space), in {@code o200k_base} not
 *       starting with {@code /} (its pattern lets a piece end on a slash after a newline);</li>
 *   <li>two spaces followed by white space (only the last space of a run joins the next word).</li>
 * </ul>
 * A pair counts only if the encoding really has it as one token, which its table records, written
 * once from the encoding by encoding every such pair. Chars are counted at the most UTF-8 bytes they may take
 * (three for any char from U+0800 on, surrogates included), so non-ASCII text stays bounded.
 * Immutable and thread-safe.
 */
final class BytePairBound {

    private static final int ASCII = 128;
    private static final int HEX_PER_ROW = ASCII / 4;

    private final boolean[] joins;
    private final boolean splitsCamelCase;

    private BytePairBound(boolean[] joins, boolean splitsCamelCase) {
        this.joins = joins;
        this.splitsCamelCase = splitsCamelCase;
    }

    /**
     * The bound for the encoding named {@code encodingName}, or {@code null} if its pattern is not
     * one the argument covers. Its table of joining pairs is read from the resource
     * {@code <encodingName>.joins} beside this class, written from the encoding by
     * {@link #joinTable} (a test checks that they agree), so that bounding never loads the
     * vocabulary: o200k_base's takes over 40 MB of heap.
     */
    static BytePairBound forEncoding(String encodingName) {
        return switch (encodingName) {
            case "cl100k_base" -> new BytePairBound(readTable(encodingName), false);
            case "o200k_base" -> new BytePairBound(readTable(encodingName), true);
            default -> null;
        };
    }

    /**
     * The table of {@code encoding} as its resource holds it: one row of hex digits per first char
     * (0 to 127); bit {@code 3 - k % 4} of digit {@code k / 4} is set when the pair (row, {@code k})
     * shares a piece by its classes and is one token of the encoding.
     */
    static String joinTable(Encoding encoding) {
        StringBuilder table = new StringBuilder();
        for (char first = 0; first < ASCII; first++) {
            for (int digit = 0; digit < HEX_PER_ROW; digit++) {
                int bits = 0;
                for (int k = 0; k < 4; k++) {
                    char second = (char) (digit * 4 + k);
                    if (sharesPieceByClass(first, second)
                            && encoding.countTokensOrdinary(String.valueOf(new char[] {first, second})) == 1) {
                        bits |= 1 << (3 - k);
                    }
                }
                table.append(Character.forDigit(bits, 16));
            }
            table.append('\n');
        }
        return table.toString();
    }

    private static boolean[] readTable(String encodingName) {
        String resource = encodingName + ".joins";
        String table;
        try (InputStream in = BytePairBound.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the table " + resource + " is missing from the class path");
            }
            table = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + resource, e);
        }
        String[] rows = table.strip().split("\n");
        if (rows.length != ASCII) {
            throw new IllegalStateException(resource + " has " + rows.length + " rows, not " + ASCII);
        }
        boolean[] joins = new boolean[ASCII * ASCII];
        for (int first = 0; first < ASCII; first++) {
            String row = rows[first].strip();
            if (row.length() != HEX_PER_ROW) {
                throw new IllegalStateException(resource + " row " + first + " has " + row.length() + " digits");
            }
            for (int second = 0; second < ASCII; second++) {
                int bits = Character.digit(row.charAt(second / 4), 16);
                joins[first * ASCII + second] = (bits >> (3 - second % 4) & 1) == 1;
            }
        }
        return joins;
    }

    /** At least the tokens of {@code text}: its UTF-8 bytes minus its spaced joining pairs. */
    int upperBound(String text) {
        int length = text.length();
        long bytes = 0;
        int pairs = 0;
        int lastPair = -3;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
            if (i >= lastPair + 3 && i + 1 < length && joinsNext(text, i, c)) {
                pairs++;
                lastPair = i;
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, bytes - pairs);
    }

    private boolean joinsNext(String text, int i, char c) {
        char next = text.charAt(i + 1);
        if (c >= ASCII || next >= ASCII || !joins[c * ASCII + next]) {
            return false;
        }
        if (isLetter(c)) {
            return !(i >= 1 && text.charAt(i - 1) == '\'') && !(i >= 2 && text.charAt(i - 2) == '\'')
                    && !(splitsCamelCase && isLower(c) && isUpper(next));
        }
        if (c == ' ') {
            return i + 2 < text.length() && isPlainWhitespace(text.charAt(i + 2));
        }
        return !(splitsCamelCase && c == '/');
    }

    // The classes of the table; the context conditions are checked per occurrence in joinsNext.
    private static boolean sharesPieceByClass(char first, char second) {
        return (isLetter(first) && isLetter(second))
                || (isPunctuation(first) && isPunctuation(second))
                || (first == ' ' && second == ' ');
    }

    private static boolean isLetter(char c) {
        return isLower(c) || isUpper(c);
    }

    private static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isPunctuation(char c) {
        return c > ' ' && c < 0x7F && !isLetter(c) && !(c >= '0' && c <= '9');
    }

    // White space under every definition a pattern engine may use.
    private static boolean isPlainWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
