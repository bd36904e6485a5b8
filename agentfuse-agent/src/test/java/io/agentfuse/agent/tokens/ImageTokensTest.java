package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * An image counts by its size in pixels, read from the head of its base64 (images written by the
 * JDK's own encoders, WebP heads laid out as its container specifies), and never more than an
 * image of unknown size.
 */
class ImageTokensTest {

    @Property(tries = 25)
    void readsTheSizeOfPngGifAndJpegImages(@ForAll @IntRange(min = 1, max = 1500) int width,
                                           @ForAll @IntRange(min = 1, max = 1500) int height) {
        for (String format : List.of("png", "gif", "jpg")) {
            String base64 = Base64.getEncoder().encodeToString(encoded(format, width, height));

            assertThat(ImageSize.of(base64, 0)).as(format).isEqualTo((long) width << 32 | height);
        }
    }

    @Test
    void hopsOverTheMetadataOfAJpegToItsFrame() {
        byte[] jpeg = encoded("jpg", 640, 480);
        byte[] comment = new byte[60_000]; // a COM segment as long as a camera's metadata
        comment[0] = (byte) 0xFF;
        comment[1] = (byte) 0xFE;
        comment[2] = (byte) ((comment.length - 2) >> 8);
        comment[3] = (byte) (comment.length - 2);
        byte[] padded = new byte[jpeg.length + comment.length];
        System.arraycopy(jpeg, 0, padded, 0, 2); // SOI
        System.arraycopy(comment, 0, padded, 2, comment.length);
        System.arraycopy(jpeg, 2, padded, 2 + comment.length, jpeg.length - 2);

        assertThat(ImageSize.of(Base64.getEncoder().encodeToString(padded), 0)).isEqualTo(640L << 32 | 480);
    }

    @Test
    void readsTheThreeWebpHeads() {
        ByteBuffer lossy = webp(" ", 30);
        lossy.put(23, (byte) 0x9D).put(24, (byte) 0x01).put(25, (byte) 0x2A).putShort(26, (short) 1280).putShort(28, (short) 800);
        ByteBuffer lossless = webp("L", 25);
        lossless.put(20, (byte) 0x2F).putInt(21, (1280 - 1) | (800 - 1) << 14);
        ByteBuffer extended = webp("X", 30);
        extended.put(24, (byte) (1280 - 1)).put(25, (byte) ((1280 - 1) >> 8)).put(27, (byte) (800 - 1)).put(28, (byte) ((800 - 1) >> 8));

        for (ByteBuffer head : List.of(lossy, lossless, extended)) {
            assertThat(ImageSize.of(Base64.getEncoder().encodeToString(head.array()), 0)).isEqualTo(1280L << 32 | 800);
        }
    }

    @Test
    void countsAScreenshotByItsPixelsWhereverItsBase64Starts() {
        String png = Base64.getEncoder().encodeToString(encoded("png", 1280, 800));
        List<String> sources = List.of("data:image/png;base64," + png, // OpenAI's image_url, the gateway's image
                "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"" + png + "\"}}",
                "ImageContent { image = Image { url = null, base64Data = \"" + png + "\", mimeType = \"image/png\" } }", png);

        for (String source : sources) {
            // The OpenAI patch accounting at its largest multiplier leads: 40 x 25 patches x 2.46.
            assertThat(ImageTokens.of(source)).as(source.substring(0, 30)).isEqualTo(2_460);
        }
        Message screenshot = Message.of(Role.USER, new RawBlock(RawBlock.IMAGE, sources.get(1)));
        assertThat(EstimatingTokenCounter.standard().countMessage(screenshot)).isEqualTo(3 + 2_460);
        // A model's own counter charges what its family charges: 1280 x 800 / 750 for Claude, six tiles for GPT-4o.
        assertThat(TokenCounter.forModel("claude-sonnet-4-5").countMessage(screenshot)).isEqualTo(3 + 1_366);
        assertThat(TokenCounter.forModel("gpt-4o").upperBoundMessage(screenshot)).isEqualTo(3 + 85 + 6 * 170);
    }

    @Test
    void eachAccountingCanLeadTheCeiling() {
        assertThat(ImageAccounting.CEILING.tokens(300, 200)).isEqualTo(1_120); // Gemini's least at high media resolution
        assertThat(ImageAccounting.CEILING.tokens(1920, 1080)).isEqualTo(3_779); // 1 536 patches x 2.46
        assertThat(ImageAccounting.CEILING.tokens(1800, 1800)).isEqualTo(4_320); // Claude: 1800 x 1800 / 750
        assertThat(ImageAccounting.CEILING.tokens(20_000, 20_000)).isEqualTo(TokenCounter.IMAGE_TOKENS); // never past an unknown image
    }

    @Test
    void anImageWhoseSizeCannotBeReadCountsAsAnUnknownOne() {
        String png = Base64.getEncoder().encodeToString(encoded("png", 64, 64));
        List<String> unreadable = List.of("https://example.com/screenshot.png", "{\"url\":\"https://example.com/a.png\"}",
                "data:image/png;base64," + png.substring(0, 20), // cut before IHDR's size
                "data:image/png;base64," + png.substring(0, 8) + "\n" + png.substring(8), // a line break in the head
                "data:image/bmp;base64," + Base64.getEncoder().encodeToString("BM not read here".getBytes()), "");

        for (String source : unreadable) {
            assertThat(ImageTokens.of(source)).as(source).isEqualTo(TokenCounter.IMAGE_TOKENS);
        }
    }

    private static byte[] encoded(String format, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            assertThat(ImageIO.write(image, format, out)).as("the JDK writes " + format).isTrue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A WebP head up to {@code length} bytes: RIFF, WEBP, and a VP8 chunk of {@code kind} (" ", "L", "X"). */
    private static ByteBuffer webp(String kind, int length) {
        byte[] bytes = Arrays.copyOf(("RIFF\0\0\0\0WEBPVP8" + kind).getBytes(), length + 4);
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void readsTheBase64OfAnImageHeldApartFromItsMediaTypeWhereItLies() {
        String png = Base64.getEncoder().encodeToString(encoded("png", 1280, 800));
        CharSequence withinItsDataUrl = java.nio.CharBuffer.wrap("data:image/png;base64," + png, 22, 22 + png.length());

        assertThat(ImageTokens.ofBase64(png, ImageAccounting.CLAUDE)).isEqualTo(ImageTokens.of("data:image/png;base64," + png,
                ImageAccounting.CLAUDE)).isEqualTo(1_366);
        assertThat(ImageTokens.ofBase64(withinItsDataUrl, ImageAccounting.CEILING)).isEqualTo(2_460);
        assertThat(ImageTokens.longestSideOfBase64(withinItsDataUrl)).isEqualTo(1280);
        assertThat(ImageTokens.longestSideOfBase64("not an image")).isEqualTo(-1);
    }
}
