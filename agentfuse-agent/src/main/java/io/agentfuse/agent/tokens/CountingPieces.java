package io.agentfuse.agent.tokens;

/**
 * Where a long text is cut before the tokenizer counts it, so that counting costs time and memory
 * in proportion to the text's length. jtokkit merges the byte pairs of one regex piece (a run of
 * letters, say) with a structure of about a hundred bytes per char: one piece of a few million
 * letters — which a broken or hostile request needs only to send — took minutes and more than a
 * gigabyte of heap, and a gateway at {@code -Xmx128m} ran out of heap for every request it served.
 *
 * <p>A text of more than {@value #MAX_CHARS} chars is counted piece by piece. A cut falls before a
 * space that follows a non-space: no piece of the tiktoken encodings' split (cl100k_base,
 * o200k_base) spans such a place — a space only ever begins a piece or belongs to a run of white
 * space — so the pieces, and the count, are those of the whole text. Where {@value #MAX_CHARS}
 * chars have no such place (a run of letters, base64, a script written without spaces) the cut
 * falls after {@value #MAX_CHARS} chars, never inside a surrogate pair, and the count may differ
 * by a token or two per cut: +57 on 683 238 tokens for a million chars of base64, +82 on 666 666
 * for a million chars of Chinese without punctuation, none for a million letters.
 *
 * <p>Stateless and thread-safe.
 */
final class CountingPieces {

    /** The longest piece counted at once, in chars. */
    static final int MAX_CHARS = 4096;

    private CountingPieces() {
    }

    /** Where the piece of {@code text} that starts at {@code start} ends (exclusive). */
    static int end(String text, int start) {
        int limit = start + MAX_CHARS;
        if (limit >= text.length()) {
            return text.length();
        }
        for (int cut = limit; cut > start + 1; cut--) {
            if (text.charAt(cut) == ' ' && !isSpace(text.charAt(cut - 1))) {
                return cut;
            }
        }
        return Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
    }

    private static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }
}
