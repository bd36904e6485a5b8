package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Bedrock's Converse refuses in the images and documents of a request, in a turn or in a tool
 * result, with Bedrock's messages: a document name of other than letters, digits, single spaces,
 * hyphens, parentheses and brackets; two documents of one name (compared ignoring case, the stricter
 * reading); more than {@value #MAX_DOCUMENTS} documents or {@value #MAX_IMAGES} images. A Claude model
 * (an id naming {@code anthropic.claude}) also refuses what Anthropic refuses, passed on as "The model
 * returned the following errors: ...": a PDF of more than {@value AnthropicMediaCheck#MAX_PDF_PAGES} pages,
 * more images and document pages together than its window takes (Anthropic's messages, without a path:
 * Bedrock's own for these is not published).
 *
 * <p>One image or document larger than the Converse API reference allows (its {@code Message}: an image of
 * at most 3.75 MB and 8000 pixels a side, a document of at most 4.5 MB, in MiB) is refused too; the user
 * guide exempts a PDF sent to Claude 4 or later, and a PDF or DOCX sent to Amazon Nova, from the document's
 * size. The document's message is Bedrock's as its users quote it; Bedrock's for an image is not published
 * and is written here in the same words. Stateless.
 */
final class BedrockMediaCheck {

    static final int MAX_IMAGES = 20;
    static final int MAX_DOCUMENTS = 5;
    static final long MAX_IMAGE_BYTES = 3_932_160;
    static final int MAX_IMAGE_SIDE = 8_000;
    static final long MAX_DOCUMENT_BYTES = 4_718_592;
    private static final Pattern CLAUDE_VERSION = Pattern.compile("anthropic\\.claude-(?:opus|sonnet|haiku)-(\\d+)");
    /** How Bedrock passes on what its Claude model refused. */
    private static final String CLAUDE = "The model returned the following errors: ";

    private BedrockMediaCheck() {
    }

    /** Bedrock's message for what is wrong with the media of {@code messages} to {@code model}, or {@code null}. */
    static String problem(JsonArray messages, String model) {
        int images = 0;
        int pages = 0;
        Set<String> names = new HashSet<>();
        for (JsonObject block : blocks(messages)) {
            if (block.containsKey("image")) {
                images++;
                Object bytes = block.getValue("image") instanceof JsonObject image
                        && image.getValue("source") instanceof JsonObject source ? source.getValue("bytes") : null;
                if (bytes instanceof String base64 && decodedBytes(base64) > MAX_IMAGE_BYTES) {
                    return "The maximum image size is 3.75 MB. Reduce the size of your image and retry your request.";
                }
                if (AnthropicMediaCheck.longestSide(bytes) > MAX_IMAGE_SIDE) {
                    return "The maximum image dimensions are " + MAX_IMAGE_SIDE + " x " + MAX_IMAGE_SIDE
                            + " pixels. Reduce the size of your image and retry your request.";
                }
            }
            if (!(block.getValue("document") instanceof JsonObject document)) {
                continue;
            }
            int documentPages = document.getValue("source") instanceof JsonObject source
                    ? AnthropicMediaCheck.pages(source.getValue("bytes")) : 1;
            if (model.contains("anthropic.claude") && documentPages > AnthropicMediaCheck.MAX_PDF_PAGES) {
                return CLAUDE + "A maximum of " + AnthropicMediaCheck.MAX_PDF_PAGES + " PDF pages may be provided.";
            }
            Object bytes = document.getValue("source") instanceof JsonObject source ? source.getValue("bytes") : null;
            if (bytes instanceof String base64 && decodedBytes(base64) > MAX_DOCUMENT_BYTES
                    && !anySize(model).contains(String.valueOf(document.getValue("format")))) {
                return "The maximum document size is 4.5 MB. Reduce the size of your document and retry your request.";
            }
            pages += documentPages;
            if (!(document.getValue("name") instanceof String name && name.matches("[A-Za-z0-9()\\[\\]\\- ]+")
                    && !name.contains("  "))) {
                return "The document file name can only contain alphanumeric characters, whitespace characters, hyphens, "
                        + "parentheses, and square brackets. The name can't contain more than one consecutive whitespace character.";
            }
            if (!names.add(name.toLowerCase(Locale.ROOT))) {
                return "Messages can't contain duplicate document names. Rename the document and retry your request.";
            }
        }
        if (names.size() > MAX_DOCUMENTS) {
            return "You can't include more than " + MAX_DOCUMENTS + " documents in a request.";
        }
        if (images > MAX_IMAGES) {
            return "You can't include more than " + MAX_IMAGES + " images in a request.";
        }
        int limit = AnthropicMediaCheck.limitFor(model);
        return model.contains("anthropic.claude") && pages + images > limit
                ? CLAUDE + "Too much media: " + pages + " document pages + " + images + " images > " + limit : null;
    }

    /** The document formats {@code model} takes of any size: PDF for Claude 4 and later, PDF and DOCX for Nova. */
    private static Set<String> anySize(String model) {
        if (model.contains("amazon.nova-")) {
            return Set.of("pdf", "docx");
        }
        Matcher version = CLAUDE_VERSION.matcher(model);
        return version.find() && version.group(1).length() <= 3 && Integer.parseInt(version.group(1)) >= 4
                ? Set.of("pdf") : Set.of();
    }

    /** The bytes {@code base64} decodes to. */
    private static long decodedBytes(String base64) {
        int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
        int length = base64.length();
        return (long) length / 4 * 3 + (length % 4 == 0 ? -padding : Math.max(0, length % 4 - 1));
    }

    /** Every content block of {@code messages}, those inside tool results included. */
    private static List<JsonObject> blocks(JsonArray messages) {
        List<JsonArray> contents = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            contents.add(messages.getJsonObject(i).getJsonArray("content"));
        }
        List<JsonObject> blocks = new ArrayList<>();
        for (int c = 0; c < contents.size(); c++) {
            JsonArray content = contents.get(c);
            for (int i = 0; i < content.size(); i++) {
                if (content.getValue(i) instanceof JsonObject block) {
                    blocks.add(block);
                    if (block.getValue("toolResult") instanceof JsonObject result && result.getValue("content") instanceof JsonArray inner) {
                        contents.add(inner);
                    }
                }
            }
        }
        return blocks;
    }
}
