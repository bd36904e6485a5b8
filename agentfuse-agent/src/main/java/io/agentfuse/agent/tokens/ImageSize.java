package io.agentfuse.agent.tokens;

/**
 * The pixel size of an image, read from the head of its base64 encoding without decoding the rest:
 * PNG ({@code IHDR}), GIF (logical screen), WebP ({@code VP8 }, {@code VP8L}, {@code VP8X}) and JPEG
 * (the first start-of-frame segment, found by hopping over the segments before it). Base64 is read
 * where it is needed, four characters for three bytes, so a JPEG whose metadata runs to tens of
 * kilobytes costs a few dozen groups, not a decode.
 *
 * <p>Anything else — another format, a cut or broken head, a character outside base64 (line breaks
 * included) — has no size here. Stateless and thread-safe.
 */
final class ImageSize {

    /** No size could be read. */
    static final long UNKNOWN = -1;

    /** The most JPEG segments hopped over before the frame: metadata comes in a handful of them. */
    private static final int MAX_JPEG_SEGMENTS = 64;

    private final CharSequence base64;
    private final int from;

    private ImageSize(CharSequence base64, int from) {
        this.base64 = base64;
        this.from = from;
    }

    /**
     * The size of the image whose base64 starts at {@code from} in {@code base64}, packed as
     * {@code width << 32 | height} ({@link #width}, {@link #height}), or {@link #UNKNOWN}.
     */
    static long of(CharSequence base64, int from) {
        ImageSize image = new ImageSize(base64, from);
        try {
            long size = image.png();
            if (size == UNKNOWN) {
                size = image.gif();
            }
            if (size == UNKNOWN) {
                size = image.webp();
            }
            if (size == UNKNOWN) {
                size = image.jpeg();
            }
            return size;
        } catch (NotThere cut) {
            return UNKNOWN;
        }
    }

    static int width(long size) {
        return (int) (size >>> 32);
    }

    static int height(long size) {
        return (int) size;
    }

    private long png() {
        if (!bytesAre(0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A) || !bytesAre(12, 'I', 'H', 'D', 'R')) {
            return UNKNOWN;
        }
        return sized(bigEndian(16, 4), bigEndian(20, 4));
    }

    private long gif() {
        if (!bytesAre(0, 'G', 'I', 'F', '8') || !bytesAre(5, 'a')) {
            return UNKNOWN;
        }
        return sized(littleEndian(6, 2), littleEndian(8, 2));
    }

    private long webp() {
        if (!bytesAre(0, 'R', 'I', 'F', 'F') || !bytesAre(8, 'W', 'E', 'B', 'P', 'V', 'P', '8')) {
            return UNKNOWN;
        }
        return switch (byteAt(15)) {
            case ' ' -> bytesAre(23, 0x9D, 0x01, 0x2A)
                    ? sized(littleEndian(26, 2) & 0x3FFF, littleEndian(28, 2) & 0x3FFF) : UNKNOWN;
            case 'L' -> {
                if (byteAt(20) != 0x2F) {
                    yield UNKNOWN;
                }
                long bits = littleEndian(21, 4);
                yield sized((bits & 0x3FFF) + 1, ((bits >>> 14) & 0x3FFF) + 1);
            }
            case 'X' -> sized(littleEndian(24, 3) + 1, littleEndian(27, 3) + 1);
            default -> UNKNOWN;
        };
    }

    private long jpeg() {
        if (!bytesAre(0, 0xFF, 0xD8)) {
            return UNKNOWN;
        }
        long at = 2;
        for (int segment = 0; segment < MAX_JPEG_SEGMENTS; segment++) {
            if (byteAt(at) != 0xFF) {
                return UNKNOWN;
            }
            int marker = byteAt(at + 1);
            while (marker == 0xFF) { // fill bytes before a marker
                marker = byteAt(++at + 1);
            }
            boolean frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
            if (frame) {
                return sized(bigEndian(at + 7, 2), bigEndian(at + 5, 2));
            }
            if (marker == 0xD9 || marker == 0xDA) {
                return UNKNOWN; // the image ended, or its data began, without a frame
            }
            at += marker == 0x01 || marker >= 0xD0 && marker <= 0xD7 ? 2 : 2 + bigEndian(at + 2, 2);
        }
        return UNKNOWN;
    }

    private static long sized(long width, long height) {
        return width > 0 && height > 0 ? width << 32 | height : UNKNOWN;
    }

    private boolean bytesAre(long at, int... expected) {
        for (int i = 0; i < expected.length; i++) {
            if (byteAt(at + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private long bigEndian(long at, int length) {
        long value = 0;
        for (int i = 0; i < length; i++) {
            value = value << 8 | byteAt(at + i);
        }
        return value;
    }

    private long littleEndian(long at, int length) {
        long value = 0;
        for (int i = length - 1; i >= 0; i--) {
            value = value << 8 | byteAt(at + i);
        }
        return value;
    }

    /** The decoded byte at {@code index}, from its group of four characters. */
    private int byteAt(long index) {
        long group = from + index / 3 * 4;
        if (group + 4 > base64.length()) {
            throw new NotThere();
        }
        int bits = sextet((int) group) << 18 | sextet((int) group + 1) << 12;
        int inGroup = (int) (index % 3);
        if (inGroup > 0) {
            bits |= sextet((int) group + 2) << 6;
        }
        if (inGroup > 1) {
            bits |= sextet((int) group + 3);
        }
        return bits >>> (16 - 8 * inGroup) & 0xFF;
    }

    private int sextet(int at) {
        char c = base64.charAt(at);
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '+' || c == '-') {
            return 62;
        }
        if (c == '/' || c == '_') {
            return 63;
        }
        throw new NotThere(); // padding before the byte asked for, or not base64
    }

    /** The head ends, or is not base64, before the byte asked for. */
    private static final class NotThere extends RuntimeException {
        NotThere() {
            super(null, null, false, false);
        }
    }
}
