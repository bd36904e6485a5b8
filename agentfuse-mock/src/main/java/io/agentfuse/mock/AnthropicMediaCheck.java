package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the Messages API refuses in the images and documents of a request, with its message: more than
 * {@value #MAX_MEDIA} images and document pages together, in turns and in tool results — the limit of
 * a model of a 200 000-token window, which every mock model is taken for
 * ({@code "Too much media: 0 document pages + 101 images > 100"}). A PDF's pages are its
 * {@code /Type /Page} objects, at least one. Stateless.
 */
final class AnthropicMediaCheck {

    static final int MAX_MEDIA = 100;

    private static final Pattern PAGE = Pattern.compile("/Type\\s*/Page(?![a-zA-Z])");

    private AnthropicMediaCheck() {
    }

    /** Anthropic's message for too much media in {@code messages}, or {@code null}. */
    static String problem(JsonArray messages) {
        int[] counted = new int[2]; // pages, images
        for (int i = 0; i < messages.size(); i++) {
            if (messages.getValue(i) instanceof JsonObject message && message.getValue("content") instanceof JsonArray content) {
                count(content, counted);
            }
        }
        return counted[0] + counted[1] > MAX_MEDIA
                ? "Too much media: " + counted[0] + " document pages + " + counted[1] + " images > " + MAX_MEDIA : null;
    }

    private static void count(JsonArray content, int[] counted) {
        for (int i = 0; i < content.size(); i++) {
            if (!(content.getValue(i) instanceof JsonObject block)) {
                continue;
            }
            switch (String.valueOf(block.getValue("type"))) {
                case "image" -> counted[1]++;
                case "document" -> counted[0] += pages(block.getValue("source"));
                case "tool_result" -> {
                    if (block.getValue("content") instanceof JsonArray inner) {
                        count(inner, counted);
                    }
                }
                default -> {
                }
            }
        }
    }

    private static int pages(Object source) {
        if (!(source instanceof JsonObject base64) || !(base64.getValue("data") instanceof String data)) {
            return 1;
        }
        try {
            Matcher page = PAGE.matcher(new String(Base64.getDecoder().decode(data), StandardCharsets.ISO_8859_1));
            int pages = 0;
            while (page.find()) {
                pages++;
            }
            return Math.max(1, pages);
        } catch (IllegalArgumentException notBase64) {
            return 1;
        }
    }
}
