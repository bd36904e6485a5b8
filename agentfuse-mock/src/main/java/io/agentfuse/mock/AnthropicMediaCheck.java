package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * What the Messages API refuses in the images and documents of a request, in turns and in tool
 * results, with its messages: a PDF of more than {@value #MAX_PDF_PAGES} pages, named by its path
 * ({@code "messages.0.content.0.pdf.source.base64.data: A maximum of 100 PDF pages may be provided."});
 * more images and document pages together than the model takes — {@value #MAX_MEDIA} for a model of
 * a 200 000-token window, {@value #MAX_MEDIA_LARGE_WINDOW} for one of Anthropic's 1M-token window
 * ({@link #LARGE_WINDOW_MODELS}) — ({@code "Too much media: 0 document pages + 101 images > 100"}); an
 * image of more than {@value #MAX_SIDE} pixels a side, or of more than {@value #MAX_SIDE_OF_MANY} in a
 * request of more than {@value #MANY_IMAGES} images, named by its path; an image of more than
 * {@value #MAX_IMAGE_BASE64} characters of base64 ({@code "image exceeds 5 MB maximum: ... bytes > 5242880
 * bytes"}). A PDF's pages are its {@code /Type /Page} objects, those in compressed object streams
 * included, at least one; an image's size is read by {@link ImageIO} (one it cannot read passes). Stateless.
 */
final class AnthropicMediaCheck {

    static final int MAX_MEDIA = 100;
    static final int MAX_MEDIA_LARGE_WINDOW = 600;
    static final int MAX_PDF_PAGES = 100;
    /**
     * The models whose window is 1M tokens without a beta header, the names they start with, as
     * Anthropic's models overview lists them: every model since Sonnet and Opus 4.6 but Haiku 4.5. The
     * mock keeps its own list, not the gateway's table (it does not depend on the gateway's modules): a
     * provider stand-in that read the gateway's table could not catch a wrong entry in it.
     */
    static final List<String> LARGE_WINDOW_MODELS = List.of("claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7",
            "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5", "claude-haiku-5", "claude-fable-5", "claude-mythos-5");
    static final int MAX_SIDE = 8_000;
    static final int MAX_SIDE_OF_MANY = 2_000;
    static final int MANY_IMAGES = 20;
    static final int MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

    private static final Pattern PAGE = Pattern.compile("/Type\\s*/Page(?![a-zA-Z])");
    private static final Pattern OBJECT_STREAM = Pattern.compile("/Type\\s*/ObjStm(?![a-zA-Z])");

    private AnthropicMediaCheck() {
    }

    /** Anthropic's message for what is wrong with the media of {@code messages} to {@code model}, or {@code null}. */
    static String problem(JsonArray messages, String model) {
        int limit = limitFor(model);
        List<Media> media = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.getValue(i) instanceof JsonObject message && message.getValue("content") instanceof JsonArray content) {
                collect(content, "messages." + i + ".content.", media);
            }
        }
        int pages = 0;
        int images = 0;
        for (Media each : media) {
            int documentPages = each.image ? 0 : pages(each.block.getValue("source"));
            if (documentPages > MAX_PDF_PAGES) {
                return each.path + "pdf.source.base64.data: A maximum of " + MAX_PDF_PAGES + " PDF pages may be provided.";
            }
            pages += documentPages;
            images += each.image ? 1 : 0;
        }
        if (pages + images > limit) {
            return "Too much media: " + pages + " document pages + " + images + " images > " + limit;
        }
        for (Media each : media) {
            int base64 = each.image ? base64Length(each.block.getValue("source")) : 0;
            if (base64 > MAX_IMAGE_BASE64) {
                return each.path + "image.source.base64: image exceeds 5 MB maximum: " + base64 + " bytes > "
                        + MAX_IMAGE_BASE64 + " bytes";
            }
            int side = each.image ? longestSide(each.block.getValue("source")) : 0;
            if (side > MAX_SIDE) {
                return each.path + "image.source.base64.data: At least one of the image dimensions exceed max allowed size: "
                        + MAX_SIDE + " pixels";
            }
            if (side > MAX_SIDE_OF_MANY && images > MANY_IMAGES) {
                return each.path + "image.source.base64.data: At least one of the image dimensions exceed max allowed size "
                        + "for many-image requests: " + MAX_SIDE_OF_MANY + " pixels";
            }
        }
        return null;
    }

    /** The most images and document pages {@code model} takes in a request (Bedrock's ids name it inside). */
    static int limitFor(String model) {
        return model != null && LARGE_WINDOW_MODELS.stream().anyMatch(model::contains) ? MAX_MEDIA_LARGE_WINDOW : MAX_MEDIA;
    }

    /** An image or document block and the path of its place in the request. */
    private record Media(JsonObject block, String path, boolean image) {
    }

    private static void collect(JsonArray content, String path, List<Media> media) {
        for (int i = 0; i < content.size(); i++) {
            if (!(content.getValue(i) instanceof JsonObject block)) {
                continue;
            }
            switch (String.valueOf(block.getValue("type"))) {
                case "image" -> media.add(new Media(block, path + i + ".", true));
                case "document" -> media.add(new Media(block, path + i + ".", false));
                case "tool_result" -> {
                    if (block.getValue("content") instanceof JsonArray inner) {
                        collect(inner, path + i + ".tool_result.content.", media);
                    }
                }
                default -> {
                }
            }
        }
    }

    /** The pages of the document in a {@code base64} source, or of base64 {@code source} itself; at least one. */
    static int pages(Object source) {
        byte[] data = source instanceof String base64 ? decoded(base64) : data(source);
        if (data == null) {
            return 1;
        }
        String pdf = new String(data, StandardCharsets.ISO_8859_1);
        int pages = leaves(pdf);
        Matcher objectStream = OBJECT_STREAM.matcher(pdf);
        while (objectStream.find()) {
            int stream = pdf.indexOf("stream", objectStream.end());
            if (stream >= 0) {
                pages += leaves(inflated(data, stream + 6));
            }
        }
        return Math.max(1, pages);
    }

    private static int leaves(String pdf) {
        Matcher page = PAGE.matcher(pdf);
        int pages = 0;
        while (page.find()) {
            pages++;
        }
        return pages;
    }

    /** The deflated data from {@code start} (past the line end after {@code stream}) inflated; what could be. */
    private static String inflated(byte[] data, int start) {
        int from = start;
        while (from < data.length && (data[from] == '\r' || data[from] == '\n')) {
            from++;
        }
        Inflater inflater = new Inflater();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            inflater.setInput(data, from, data.length - from);
            byte[] chunk = new byte[8192];
            while (!inflater.finished()) {
                int read = inflater.inflate(chunk);
                if (read == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                out.write(chunk, 0, read);
            }
        } catch (DataFormatException broken) {
            // what was inflated before the error is read
        } finally {
            inflater.end();
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** The longer side in pixels of the image in a {@code base64} source, or of base64 {@code source} itself; 0 when unread. */
    static int longestSide(Object source) {
        byte[] data = source instanceof String base64 ? decoded(base64) : data(source);
        if (data == null) {
            return 0;
        }
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(data))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                return 0;
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in);
                return Math.max(reader.getWidth(0), reader.getHeight(0));
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
    }

    /** The characters of a {@code base64} source's data; 0 for another source. */
    private static int base64Length(Object source) {
        return source instanceof JsonObject base64 && base64.getValue("data") instanceof String data ? data.length() : 0;
    }

    /** The bytes of a {@code base64} source, or {@code null}. */
    private static byte[] data(Object source) {
        if (!(source instanceof JsonObject base64) || !(base64.getValue("data") instanceof String data)) {
            return null;
        }
        return decoded(data);
    }

    private static byte[] decoded(String data) {
        try {
            return Base64.getDecoder().decode(data);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
