package io.agentfuse.bench;

import io.agentfuse.agent.tokens.ImageTokens;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The size in pixels of a screenshot sent as a data URL (1 280 × 800, noisy enough to weigh some
 * hundred kilobytes), read as the token counters read it for every image of every request:
 * <ul>
 *   <li>{@code headOfBase64}: {@link ImageTokens#of}, the few base64 groups of the image's head
 *       decoded where they lie ({@code ImageSize});</li>
 *   <li>{@code imageIoReader}: the JDK's way, {@code javax.imageio} reading the head through a
 *       base64-decoding stream over the same characters (no disk cache), one reader per image.</li>
 * </ul>
 * PNG keeps its size in its first chunk; the JPEG carries 30 KB of metadata before its frame, as a
 * camera's or a screenshot tool's may. Run: {@code java -jar agentfuse-bench/target/benchmarks.jar ImageSizeBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class ImageSizeBench {

    @Param({"png", "jpg"})
    public String format;

    private String dataUrl;

    @Setup(Level.Trial)
    public void setUp() {
        ImageIO.setUseCache(false);
        dataUrl = "data:image/" + format + ";base64," + Base64.getEncoder().encodeToString(screenshot(format));
    }

    @Benchmark
    public int headOfBase64() {
        return ImageTokens.of(dataUrl);
    }

    @Benchmark
    public long imageIoReader() throws IOException {
        int start = dataUrl.indexOf("base64,") + "base64,".length();
        InputStream chars = new InputStream() {
            private int at = start;

            @Override
            public int read() {
                return at < dataUrl.length() ? dataUrl.charAt(at++) : -1;
            }
        };
        try (ImageInputStream in = ImageIO.createImageInputStream(Base64.getDecoder().wrap(chars))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                return (long) reader.getWidth(0) << 32 | reader.getHeight(0);
            } finally {
                reader.dispose();
            }
        }
    }

    private static byte[] screenshot(String format) {
        BufferedImage image = new BufferedImage(1280, 800, BufferedImage.TYPE_INT_RGB);
        Random noise = new Random(42);
        for (int y = 0; y < 800; y += 4) {
            for (int x = 0; x < 1280; x += 4) {
                image.setRGB(x, y, noise.nextInt());
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, format, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] bytes = out.toByteArray();
        if (!format.equals("jpg")) {
            return bytes;
        }
        byte[] withMetadata = new byte[bytes.length + 30_000]; // an APP1 segment of 30 KB after SOI
        withMetadata[0] = bytes[0];
        withMetadata[1] = bytes[1];
        withMetadata[2] = (byte) 0xFF;
        withMetadata[3] = (byte) 0xE1;
        withMetadata[4] = (byte) ((30_000 - 2) >> 8);
        withMetadata[5] = (byte) (30_000 - 2);
        System.arraycopy(bytes, 2, withMetadata, 30_002, bytes.length - 2);
        return withMetadata;
    }
}
