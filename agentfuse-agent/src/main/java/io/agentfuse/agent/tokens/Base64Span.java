package io.agentfuse.agent.tokens;

/**
 * Where the base64 of a medium lies in a text: all of it, when the text is the base64 itself (what
 * the gateway holds apart from its media type), else, in a media block's text (a data URL, or a raw
 * block's JSON holding one), after the first {@code base64,} within the text's first
 * {@value #MAX_PREFIX_CHARS} characters, up to the next quote or the end. The counters of documents
 * and audio read a medium's size from it without decoding it or cutting it out.
 *
 * @param start the index of the first base64 character, after {@code base64,}
 * @param end   the index after the last
 */
record Base64Span(int start, int end) {

    /** How far into a block's text the start of its base64 is looked for. */
    static final int MAX_PREFIX_CHARS = 1024;
    private static final String BASE64 = "base64,";

    /** All of {@code base64}, which is base64 and nothing else. */
    static Base64Span whole(CharSequence base64) {
        return new Base64Span(0, base64.length());
    }

    /** The base64 in {@code source}, or {@code null} when no {@code base64,} starts within its first characters. */
    static Base64Span in(CharSequence source) {
        int marker = indexOf(source, BASE64, 0, Math.min(source.length(), MAX_PREFIX_CHARS));
        if (marker < 0) {
            return null;
        }
        int start = marker + BASE64.length();
        // A String's own search over megabytes of base64, not a char at a time.
        int quote = source instanceof String text ? text.indexOf('"', start) : indexOf(source, "\"", start, source.length());
        return new Base64Span(start, quote < 0 ? source.length() : quote);
    }

    /** The index of {@code base64,} in {@code source}: where what comes before it (a media type) ends. */
    int marker() {
        return start - BASE64.length();
    }

    /** The bytes the base64 decodes to, padding aside. */
    long bytes() {
        return 3L * (end - start) / 4;
    }

    /** The index of {@code wanted} in {@code source} from {@code from}, wholly before {@code limit}; -1 when none. */
    static int indexOf(CharSequence source, String wanted, int from, int limit) {
        for (int at = from; at + wanted.length() <= limit; at++) {
            int i = 0;
            while (i < wanted.length() && source.charAt(at + i) == wanted.charAt(i)) {
                i++;
            }
            if (i == wanted.length()) {
                return at;
            }
        }
        return -1;
    }
}
