package io.agentfuse.agent.tokens;

/**
 * The tokens of one image, by its size in pixels where its bytes are at hand: providers charge an
 * image by its pixels, not by its encoding. The count is a ceiling over the published accountings,
 * so that a conversation counted by it fits whichever model takes it:
 * <ul>
 *   <li>Claude: about width × height / 750;</li>
 *   <li>OpenAI's tiled accounting (GPT-4o class, high detail): the image fitted into 2 048 × 2 048,
 *       its shorter side brought down to 768, then 85 tokens and 170 per 512-pixel tile;</li>
 *   <li>OpenAI's patch accounting (the mini and nano models): one patch per 32 × 32 pixels, at most
 *       1 536 (the image scaled down to fit), times the largest published multiplier, 2.46;</li>
 *   <li>Gemini: 258 tokens for an image within 384 × 384, else 258 per 768-pixel tile; at least
 *       1 120, what Gemini 3 spends on an image at high media resolution.</li>
 * </ul>
 * Never more than {@link TokenCounter#IMAGE_TOKENS}, the count of an image whose size is not known
 * (a URL, a file, a format not read here, see {@link ImageSize}), so that reading the size only
 * ever lowers the count: a 1 280 × 800 screenshot counts 2 460 tokens instead of 4 800, a
 * 300 × 200 icon 1 120. Stateless and thread-safe.
 *
 * <pre>{@code
 * int tokens = ImageTokens.of("data:image/png;base64,iVBORw0KGgo...");
 * }</pre>
 */
public final class ImageTokens {

    /** How far into an image block's text the start of its base64 is looked for. */
    private static final int MAX_PREFIX_CHARS = 1024;
    /** What comes right before an image's base64: a data URL's head, a JSON field, LangChain4j's {@code Image}. */
    private static final String[] BASE64_STARTS = {"base64,", "\"data\":\"", "\"data\": \"", "base64Data = \""};

    private ImageTokens() {
    }

    /**
     * The tokens of the image in {@code source}: a data URL, a block of JSON (or other text) whose
     * image data starts within its first {@value #MAX_PREFIX_CHARS} characters, or bare base64;
     * {@link TokenCounter#IMAGE_TOKENS} when its size cannot be read from it.
     */
    public static int of(CharSequence source) {
        long size = ImageSize.of(source, base64Start(source));
        return size == ImageSize.UNKNOWN ? TokenCounter.IMAGE_TOKENS
                : ofSize(ImageSize.width(size), ImageSize.height(size));
    }

    /** The tokens of an image of {@code width} × {@code height} pixels (both at least 1). */
    static int ofSize(long width, long height) {
        long ceiling = Math.max(Math.max(claude(width, height), openAiTiles(width, height)),
                Math.max(openAiPatches(width, height), gemini(width, height)));
        return (int) Math.min(ceiling, TokenCounter.IMAGE_TOKENS);
    }

    private static long claude(long width, long height) {
        return ceilDiv(width * height, 750);
    }

    private static long openAiTiles(long width, long height) {
        double scale = Math.min(1.0, 2048.0 / Math.max(width, height));
        double w = width * scale;
        double h = height * scale;
        scale = Math.min(1.0, 768.0 / Math.min(w, h));
        long tiles = (long) Math.ceil(w * scale / 512) * (long) Math.ceil(h * scale / 512);
        return 85 + 170 * tiles;
    }

    private static long openAiPatches(long width, long height) {
        long patches = ceilDiv(width, 32) * ceilDiv(height, 32);
        return (long) Math.ceil(Math.min(patches, 1536) * 2.46);
    }

    private static long gemini(long width, long height) {
        long tiles = width <= 384 && height <= 384 ? 1 : ceilDiv(width, 768) * ceilDiv(height, 768);
        return Math.max(258 * tiles, 1120);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
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
