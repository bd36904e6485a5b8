package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.vertx.core.json.JsonObject;

/**
 * What a Responses input item of a custom or built-in tool ({@code custom_tool_call},
 * {@code custom_tool_call_output}, {@code computer_call_output}, {@code image_generation_call}, a
 * newer type) counts, for the message it rides with: the neutral model carries no such item, and
 * left out, a conversation of them counted nothing. An image is counted by its pixels — the
 * screenshot of a {@code computer_call_output}, the image an {@code image_generation_call} made —
 * since as the text of its base64 a screenshot counted some hundred thousand tokens the model is not
 * charged; any other item by its JSON text, as an Anthropic block the gateway does not model is.
 * Stateless.
 *
 * <pre>{@code
 * ContentPart counted = CountedItem.of(item);  // an Image, or the item as an Opaque part
 * }</pre>
 */
final class CountedItem {

    private CountedItem() {
    }

    /** The part that counts for {@code item}. */
    static ContentPart of(JsonObject item) {
        if (item.getValue("output") instanceof JsonObject output && output.getValue("image_url") instanceof String url) {
            return new ContentPart.Image(MediaSource.of(url));
        }
        if ("image_generation_call".equals(item.getValue("type")) && item.getValue("result") instanceof String base64) {
            return new ContentPart.Image(MediaSource.Inline.of("image/png", base64));
        }
        return new ContentPart.Opaque(item.encode());
    }
}
