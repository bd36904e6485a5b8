package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What Bedrock's Converse refuses in the images and documents of a request, in a turn or in a tool
 * result, with Bedrock's messages: a document name of other than letters, digits, single spaces,
 * hyphens, parentheses and brackets; two documents of one name (compared ignoring case, the stricter
 * reading); more than {@value #MAX_DOCUMENTS} documents or {@value #MAX_IMAGES} images. A Claude model
 * (an id naming {@code anthropic.claude}) also refuses what Anthropic refuses, passed on as "The model
 * returned the following errors: ...": a PDF of more than {@value AnthropicMediaCheck#MAX_PDF_PAGES} pages,
 * more images and document pages together than its window takes (Anthropic's messages, without a path:
 * Bedrock's own for these is not published). Stateless.
 */
final class BedrockMediaCheck {

    static final int MAX_IMAGES = 20;
    static final int MAX_DOCUMENTS = 5;
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
            }
            if (!(block.getValue("document") instanceof JsonObject document)) {
                continue;
            }
            int documentPages = document.getValue("source") instanceof JsonObject source
                    ? AnthropicMediaCheck.pages(source.getValue("bytes")) : 1;
            if (model.contains("anthropic.claude") && documentPages > AnthropicMediaCheck.MAX_PDF_PAGES) {
                return CLAUDE + "A maximum of " + AnthropicMediaCheck.MAX_PDF_PAGES + " PDF pages may be provided.";
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
