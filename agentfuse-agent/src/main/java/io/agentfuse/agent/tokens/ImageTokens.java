package io.agentfuse.agent.tokens;

/**
 * The tokens of one image, by its size in pixels where its bytes are at hand: providers charge an
 * image by its pixels, not by its encoding. How many tokens a size is worth is the model family's
 * {@link ImageAccounting}; without a family, the most Claude's, OpenAI's and Gemini's accountings
 * charge ({@link ImageAccounting#CEILING}), so that a conversation counted by it fits whichever model takes
 * it. Never more than {@link TokenCounter#IMAGE_TOKENS}, the count of an image whose size is not
 * known (a URL, a file, a format not read here, see {@link ImageSize}) unless its family charges
 * less whatever the size, so that reading the size only ever lowers the count: by the ceiling a
 * 1 280 × 800 screenshot counts 2 460 tokens instead of 4 800, a 64 × 64 icon 1 120; for Claude, 1 366 and 9.
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * int tokens = ImageTokens.of("data:image/png;base64,iVBORw0KGgo...", ImageAccounting.CLAUDE);
 * int same = ImageTokens.ofBase64("iVBORw0KGgo...", ImageAccounting.CLAUDE);
 * }</pre>
 */
public final class ImageTokens {

    /** How far into an image block's text the start of its base64 is looked for. */
    private static final int MAX_PREFIX_CHARS = 1024;
    /** What comes right before an image's base64: a data URL's head, a JSON field, LangChain4j's {@code Image}. */
    private static final String[] BASE64_STARTS = {"base64,", "\"data\":\"", "\"data\": \"", "base64Data = \""};

    private ImageTokens() {
    }

    /** {@link #of(CharSequence, ImageAccounting)} by {@link ImageAccounting#CEILING}, for a counter of any model. */
    public static int of(CharSequence source) {
        return of(source, ImageAccounting.CEILING);
    }

    /**
     * The tokens of the image in {@code source} by {@code accounting}: a data URL, a block of JSON (or
     * other text) whose image data starts within its first {@value #MAX_PREFIX_CHARS} characters, or
     * bare base64; {@link ImageAccounting#unknownSize()} when its size cannot be read from it.
     */
    public static int of(CharSequence source, ImageAccounting accounting) {
        return tokens(ImageSize.of(source, base64Start(source)), accounting);
    }

    /**
     * The longer side in pixels of the image in {@code source} (as {@link #of(CharSequence)} reads it),
     * or {@code -1} when its size cannot be read from it: for the limits a provider sets on an image's size.
     */
    public static int longestSide(CharSequence source) {
        return longestSide(ImageSize.of(source, base64Start(source)));
    }

    /**
     * The tokens of the image whose data is {@code base64}, its base64 alone (no data URL's head, no
     * JSON around it), by {@code accounting}: its head read where it lies, without a copy.
     */
    public static int ofBase64(CharSequence base64, ImageAccounting accounting) {
        return tokens(ImageSize.of(base64, 0), accounting);
    }

    /** {@link #longestSide} of the image whose data is {@code base64}, its base64 alone. */
    public static int longestSideOfBase64(CharSequence base64) {
        return longestSide(ImageSize.of(base64, 0));
    }

    private static int tokens(long size, ImageAccounting accounting) {
        return size == ImageSize.UNKNOWN ? accounting.unknownSize()
                : accounting.tokens(ImageSize.width(size), ImageSize.height(size));
    }

    private static int longestSide(long size) {
        return size == ImageSize.UNKNOWN ? -1 : Math.max(ImageSize.width(size), ImageSize.height(size));
    }

    // Where the base64 starts: after the earliest of BASE64_STARTS in the first characters, else at 0.
    private static int base64Start(CharSequence source) {
        int limit = Math.min(source.length(), MAX_PREFIX_CHARS);
        for (int at = 0; at < limit; at++) {
            for (String start : BASE64_STARTS) {
                if (startsAt(source, at, limit, start)) {
                    return at + start.length();
                }
            }
        }
        return 0;
    }

    private static boolean startsAt(CharSequence source, int at, int limit, String start) {
        if (at + start.length() > limit) {
            return false;
        }
        for (int i = 0; i < start.length(); i++) {
            if (source.charAt(at + i) != start.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
