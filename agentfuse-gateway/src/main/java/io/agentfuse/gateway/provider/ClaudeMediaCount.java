package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.UntranslatableException;

/**
 * The images and document pages of one request to a Claude model, counted against what Anthropic
 * takes in a request, wherever the model is served (the Messages API, Vertex AI, Bedrock): at most
 * {@value #MAX_MEDIA} images and pages together for a model of a window up to {@value #SMALL_WINDOW}
 * tokens, {@value #MAX_MEDIA_LARGE_WINDOW} for a larger one ("up to 600 images or PDF pages per request,
 * 100 for models with a 200k-token context window"), and no PDF of more than {@value #MAX_PDF_PAGES}
 * pages ({@code "A maximum of 100 PDF pages may be provided."}). More is refused 400, which would end
 * the fallback chain: the step is untranslatable instead, and the chain goes on to the next model.
 *
 * <p>A document counts its pages ({@link PdfPages}: a PDF by address or of another type, one page, the
 * least it can have, so that no request Anthropic takes is held back). The window is the step's
 * {@code contextWindow}, what the context ladder holds the request to; a request written without one
 * is held to the smaller window's limit, the stricter.
 *
 * <p>One instance per request written; not thread-safe.
 * {@code ClaudeMediaCount media = new ClaudeMediaCount(1_000_000); media.image(); media.document(pdf);}
 */
public final class ClaudeMediaCount {

    /** The largest window of the models held to {@value #MAX_MEDIA} images and pages. */
    public static final long SMALL_WINDOW = 200_000;
    /** The most images and document pages in a request to a model of a window up to {@value #SMALL_WINDOW}. */
    public static final int MAX_MEDIA = 100;
    /** The most images and document pages in a request to a model of a larger window. */
    public static final int MAX_MEDIA_LARGE_WINDOW = 600;
    /** The most pages of one PDF. */
    public static final int MAX_PDF_PAGES = 100;

    private final int limit;
    private int images;
    private int pages;

    /** A count for a model of {@code contextWindow} tokens. */
    public ClaudeMediaCount(long contextWindow) {
        this.limit = limitFor(contextWindow);
    }

    /** The most images and pages a request to a model of {@code contextWindow} tokens takes. */
    public static int limitFor(long contextWindow) {
        return contextWindow > SMALL_WINDOW ? MAX_MEDIA_LARGE_WINDOW : MAX_MEDIA;
    }

    /**
     * Counts one image.
     *
     * @throws UntranslatableException beyond the request's images and pages
     */
    public void image() {
        images++;
        check();
    }

    /**
     * Counts the document of {@code source} by its pages.
     *
     * @throws UntranslatableException for a PDF of more than {@value #MAX_PDF_PAGES} pages, or beyond the
     *                                 request's images and pages
     */
    public void document(MediaSource source) {
        int counted = PdfPages.of(source);
        if (counted > MAX_PDF_PAGES) {
            throw new UntranslatableException("a PDF of " + counted + " pages (Claude takes " + MAX_PDF_PAGES + ")");
        }
        pages += counted;
        check();
    }

    /** The images counted so far. */
    public int images() {
        return images;
    }

    private void check() {
        if (images + pages > limit) {
            throw new UntranslatableException("more than " + limit + " images and document pages (Claude takes " + limit
                    + " in a request to this model): " + images + " images and " + pages + " pages");
        }
    }
}
