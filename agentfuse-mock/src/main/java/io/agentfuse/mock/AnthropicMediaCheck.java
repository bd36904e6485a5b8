package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the Messages API refuses in the images and documents of a request, in turns and in tool
 * results, with its messages: more than {@value #MAX_MEDIA} images and document pages together — the
 * limit of a model of a 200 000-token window, which every mock model is taken for
 * ({@code "Too much media: 0 document pages + 101 images > 100"}); an image of more than
 * {@value #MAX_SIDE} pixels a side, or of more than {@value #MAX_SIDE_OF_MANY} in a request of more than
 * {@value #MANY_IMAGES} images, named by its path; an image of more than {@value #MAX_IMAGE_BASE64}
 * characters of base64 ({@code "image exceeds 5 MB maximum: ... bytes > 5242880 bytes"}). A PDF's pages are its {@code /Type /Page} objects, at
 * least one; an image's size is read by {@link ImageIO} (one it cannot read passes). Stateless.
 */
final class AnthropicMediaCheck {

    static final int MAX_MEDIA = 100;
    static final int MAX_SIDE = 8_000;
    static final int MAX_SIDE_OF_MANY = 2_000;
    static final int MANY_IMAGES = 20;
    static final int MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

    private static final Pattern PAGE = Pattern.compile("/Type\\s*/Page(?![a-zA-Z])");

    private AnthropicMediaCheck() {
    }

    /** Anthropic's message for what is wrong with the media of {@code messages}, or {@code null}. */
    static String problem(JsonArray messages) {
        List<Media> media = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.getValue(i) instanceof JsonObject message && message.getValue("content") instanceof JsonArray content) {
                collect(content, "messages." + i + ".content.", media);
            }
        }
        int pages = 0;
        int images = 0;
        for (Media each : media) {
            pages += each.image ? 0 : pages(each.block.getValue("source"));
            images += each.image ? 1 : 0;
        }
        if (pages + images > MAX_MEDIA) {
            return "Too much media: " + pages + " document pages + " + images + " images > " + MAX_MEDIA;
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

    private static int pages(Object source) {
        byte[] data = data(source);
        if (data == null) {
            return 1;
        }
        Matcher page = PAGE.matcher(new String(data, StandardCharsets.ISO_8859_1));
        int pages = 0;
        while (page.find()) {
            pages++;
        }
        return Math.max(1, pages);
    }

    private static int longestSide(Object source) {
        byte[] data = data(source);
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
        try {
            return Base64.getDecoder().decode(data);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
