package io.agentfuse.agent.tokens;

/**
 * Where a long text is cut before the tokenizer counts it, so that counting costs time and memory
 * in proportion to the text's length, whatever the text.
 *
 * <p>jtokkit splits a text by the encoding's regex into pieces (a word, a run of punctuation, of
 * white space) and merges the byte pairs of each piece: a piece of up to 500 UTF-8 bytes in a small
 * array, a longer one in a structure of about a hundred bytes per char. A piece of a few million
 * letters — which a broken or hostile request needs only to send — took minutes and more than a
 * gigabyte of heap; cut into 4 096-char pieces, a million chars of one kind (letters, white space,
 * punctuation, Chinese) still allocated 455 to 725 bytes a char and, on a 128 MiB heap, took 115 to
 * 720 ms of a counting thread. Runs of {@value #MAX_RUN}: 5 to 203 bytes a char, 21 to 470 ms. So
 * two rules:
 *
 * <ul>
 *   <li>A piece is at most {@value #MAX_CHARS} chars. Its cut falls before a space that follows a
 *       non-space: no piece of the tiktoken encodings' split (cl100k_base, o200k_base) spans such a
 *       place — a space only ever begins a piece or belongs to a run of white space — so the pieces,
 *       and the count, are those of the whole text.</li>
 *   <li>No run of more than {@value #MAX_RUN} chars of one kind (letters and marks, white space, or
 *       other non-digits: punctuation, symbols, emoji) is counted at once: such a run is the one way
 *       to make a regex piece long, and at {@value #MAX_RUN} chars (at most 384 bytes) it stays in
 *       the small array. The run is cut after {@value #MAX_RUN} chars (at the last space cut before
 *       it, if the piece has one). Digits are left alone: the split takes them three at a time.</li>
 * </ul>
 *
 * <p>Both cuts fall between the halves of no surrogate pair. A hard cut (no space to cut before)
 * may change the count by a token or so (o200k, a million chars): +49 on 682 286 tokens for
 * base64, +1 on 1 768 344 for Chinese without punctuation, +1 297 on 518 740 for random letters,
 * none for one letter repeated. A long run of punctuation whose tokens are long counts high:
 * {@code "-="} repeated, +31 248 on 62 504 — high, never low, is the side a context guard can take.
 *
 * <p>Stateless and thread-safe.
 */
final class CountingPieces {

    /** The longest piece counted at once, in chars. */
    static final int MAX_CHARS = 4096;
    /** The longest run of one kind of char counted at once (three UTF-8 bytes a char at most: under jtokkit's 500). */
    static final int MAX_RUN = 128;

    private static final byte LETTER = 0;
    private static final byte DIGIT = 1;
    private static final byte SPACE = 2;
    private static final byte OTHER = 3;
    private static final byte[] ASCII_KINDS = asciiKinds();

    private CountingPieces() {
    }

    /** Whether {@code text} is counted in one piece. */
    static boolean isOnePiece(String text) {
        return text.length() <= MAX_RUN;
    }

    /** Where the piece of {@code text} that starts at {@code start} ends (exclusive). */
    static int end(String text, int start) {
        int limit = Math.min(text.length(), start + MAX_CHARS);
        int spaceCut = -1;
        byte runKind = -1; // the kind of the char before i
        int run = 0;
        for (int i = start; i < limit; i++) {
            char c = text.charAt(i);
            if (c == ' ' && i > start + 1 && runKind != SPACE) {
                spaceCut = i;
            }
            byte kind = kindOf(c);
            run = kind == runKind ? run + 1 : 1;
            runKind = kind;
            if (run > MAX_RUN && kind != DIGIT) {
                return spaceCut > 0 ? spaceCut : hardCut(text, i);
            }
        }
        if (limit == text.length()) {
            return limit;
        }
        if (text.charAt(limit) == ' ' && runKind != SPACE) {
            return limit; // the piece ends right before a space cut
        }
        return spaceCut > 0 ? spaceCut : hardCut(text, limit);
    }

    /** {@code cut}, or one char before it when it would split a surrogate pair. */
    private static int hardCut(String text, int cut) {
        return Character.isHighSurrogate(text.charAt(cut - 1)) ? cut - 1 : cut;
    }

    private static byte kindOf(char c) {
        if (c < 128) {
            return ASCII_KINDS[c];
        }
        if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
            return SPACE;
        }
        if (Character.isLetter(c) || isMark(c)) {
            return LETTER;
        }
        return Character.isDigit(c) ? DIGIT : OTHER;
    }

    private static boolean isMark(char c) {
        int type = Character.getType(c);
        return type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
                || type == Character.COMBINING_SPACING_MARK;
    }

    private static byte[] asciiKinds() {
        byte[] kinds = new byte[128];
        for (char c = 0; c < 128; c++) {
            kinds[c] = Character.isLetter(c) ? LETTER : Character.isDigit(c) ? DIGIT
                    : Character.isWhitespace(c) || Character.isSpaceChar(c) ? SPACE : OTHER;
        }
        return kinds;
    }
}
