package io.agentfuse.agent.tokens;

/**
 * The tokens of one document (a PDF an agent read: {@link io.agentfuse.agent.conversation.RawBlock#DOCUMENT}),
 * by its pages, as providers charge it: Claude reads each page as text and as an image, 1 500 to
 * 3 000 tokens a page by its documentation; Gemini 258 a page; OpenAI the text and an image of each
 * page. The pages are guessed from the size of the document's data — one for every
 * {@value #BYTES_PER_PAGE} bytes, rounded up — since reading them would mean decoding the whole
 * document, and a modern PDF keeps its page tree in compressed streams. Counted as the text of its
 * base64 instead, a 1 MB PDF came to some 200 000 tokens and alone filled a context window a
 * provider would have taken it in.
 *
 * <p>At most {@value #MAX_PAGES} pages (the most a provider takes in one request), each
 * {@value #TOKENS_PER_PAGE} tokens; a document whose data is not at hand (a URL, a file id) counts
 * {@value #UNKNOWN_PAGES} pages. A guess, not a ceiling: a large document of few dense pages counts
 * high, a book of thin pages low, and the provider's own limit answers what the guess lets
 * through. Stateless and thread-safe.
 *
 * <pre>{@code
 * int tokens = DocumentTokens.of("data:application/pdf;base64,JVBERi0xLjcK...");
 * int same = DocumentTokens.ofBase64("JVBERi0xLjcK...");
 * }</pre>
 */
public final class DocumentTokens {

    /** The bytes of a document taken for one page. */
    static final int BYTES_PER_PAGE = 60 * 1024;
    /** The tokens of one page: the middle of Claude's published range, above the others'. */
    static final int TOKENS_PER_PAGE = 2_000;
    /** The most pages a document counts. */
    static final int MAX_PAGES = 100;
    /** The pages of a document whose data is not at hand. */
    static final int UNKNOWN_PAGES = 10;


    private DocumentTokens() {
    }

    /**
     * The tokens of the document in {@code source}: a data URL, or text (a raw block's JSON) holding
     * one whose {@code base64,} starts within its first {@value Base64Span#MAX_PREFIX_CHARS} characters and whose
     * data runs to the next quote or to the end.
     */
    public static int of(CharSequence source) {
        Base64Span data = Base64Span.in(source);
        return data == null ? UNKNOWN_PAGES * TOKENS_PER_PAGE : ofBytes(data.bytes());
    }

    /**
     * The tokens of the document whose data is {@code base64}, its base64 alone (no data URL's head,
     * no JSON around it), read where it lies, without a copy.
     */
    public static int ofBase64(CharSequence base64) {
        return ofBytes(Base64Span.whole(base64).bytes());
    }

    /** The tokens of a document of {@code bytes} bytes. */
    static int ofBytes(long bytes) {
        long pages = Math.max(1, Math.min(MAX_PAGES, (bytes + BYTES_PER_PAGE - 1) / BYTES_PER_PAGE));
        return (int) pages * TOKENS_PER_PAGE;
    }
}
