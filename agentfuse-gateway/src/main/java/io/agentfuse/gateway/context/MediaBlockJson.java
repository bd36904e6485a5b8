package io.agentfuse.gateway.context;

import io.agentfuse.gateway.dialect.MediaSource;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The JSON text of the raw block that carries an image, a document, a piece of audio or a video through the
 * agent module's conversation: {@code {"url": <its URL>}}, a document's {@code "title"} after it,
 * as {@code JsonObject.encode()} writes them.
 * Inline media's data URL is written into that text as one string of the text's exact size, from
 * the string the data came in (the caller's data URL, or its base64 after the head the data URL
 * needs): built with {@code JsonObject.encode()} of {@link MediaSource#url()}, a screenshot's
 * 4.8 MB of base64 were copied into a data URL, then into an encoder's blocks of chars (two bytes
 * each), then into the text, some 20 MB for a conversation the context ladder measured.
 *
 * <p>Data with a char that JSON escapes (a quote, a backslash, a control char: never in base64, but
 * a caller may send anything) and media by address are written by the encoder, as before.
 *
 * <p>Stateless and thread-safe.
 */
final class MediaBlockJson {

    private MediaBlockJson() {
    }

    /** The block's text for an image, a piece of audio or a video from {@code source}. */
    static String of(MediaSource source) {
        return of(source, false, null);
    }

    /** The block's text for a document from {@code source}, named {@code title} ({@code null}: written as null). */
    static String ofDocument(MediaSource source, String title) {
        return of(source, true, title);
    }

    private static String of(MediaSource source, boolean titled, String title) {
        if (source instanceof MediaSource.Inline inline) {
            // Neither is a copy: the base64 as it came apart from its media type, else the data URL it came in.
            String apart = inline.base64Chars() instanceof String base64 ? base64 : null;
            String data = apart != null ? apart : inline.url();
            if (plain(data)) {
                String head = apart != null ? MediaSource.DATA + inline.mediaType() + ";base64," : "";
                String quotedHead = Json.encode(head); // the media type is the caller's: escaped as the encoder would
                String tail = titled ? "\",\"title\":" + Json.encode(title) + "}" : "\"}";
                // One allocation of the whole text's size: the concatenation sizes it first.
                return "{\"url\":" + quotedHead.substring(0, quotedHead.length() - 1) + data + tail;
            }
        }
        JsonObject block = new JsonObject().put("url", source.url());
        return (titled ? block.put("title", title) : block).encode();
    }

    /** Whether {@code text} is written in JSON as it is: no quote, no backslash, no control char. */
    private static boolean plain(String text) {
        for (int i = 0; i < text.length(); i++) { // one pass over megabytes of base64, not three
            char c = text.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }
}
