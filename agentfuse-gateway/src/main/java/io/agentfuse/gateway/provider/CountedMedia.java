package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.MediaSource;

/**
 * The audio and video of a caller's request that no other dialect takes the same way — a Gemini
 * {@code inlineData} or {@code fileData} part of an {@code audio/*} or {@code video/*} type (or a
 * YouTube link, which Gemini takes as video without a type), an OpenAI {@code input_audio} part
 * (Chat Completions' and the Responses API's, of one form) — as a {@link ContentPart.Audio} or a
 * {@link ContentPart.Video}, carried into the neutral request only so that the context ladder and
 * the token counts count it (left out, it counted nothing); any other Gemini part no other dialect
 * takes, as its JSON text ({@link #ofGeminiOther}). Its data is taken as it came, unchecked:
 * it is only ever counted, and the request goes as it came within its own dialect, while the parser
 * names the part untranslatable for the others. Its data is held as it came, apart from its media
 * type, never copied into a data URL. Stateless.
 *
 * <pre>{@code
 * ContentPart counted = CountedMedia.ofGeminiOther(part);  // Audio, Video, or the part's JSON as Opaque
 * }</pre>
 */
public final class CountedMedia {

    private CountedMedia() {
    }

    /** The audio or video of a Gemini part, or {@code null} for a part of anything else. */
    private static ContentPart ofGeminiPart(FieldReader part) {
        FieldReader inline = part.optionalObject("inlineData");
        FieldReader media = inline != null ? inline : part.optionalObject("fileData");
        if (media == null) {
            return null;
        }
        String mimeType = media.optionalString("mimeType");
        String data = inline != null ? inline.optionalString("data") : null;
        String uri = inline != null ? null : media.optionalString("fileUri");
        boolean audio = mimeType != null && mimeType.startsWith("audio/");
        if (!audio && !(mimeType != null ? mimeType.startsWith("video/") : isYouTube(uri))) {
            return null;
        }
        MediaSource source = data != null ? MediaSource.Inline.of(mimeType, data) : MediaSource.of(String.valueOf(uri));
        return audio ? new ContentPart.Audio(source) : new ContentPart.Video(source);
    }

    /**
     * A Gemini part no other dialect takes, as the neutral model carries it only to count it: audio and
     * video by their seconds ({@link #ofGeminiPart}), any other (code and its result, a text file's
     * {@code inlineData}, a newer kind of part) as an {@link ContentPart.Opaque} part, counted as its
     * JSON text, as an Anthropic block the gateway does not model is; left out, it counted nothing.
     */
    public static ContentPart ofGeminiOther(FieldReader part) {
        ContentPart media = ofGeminiPart(part);
        return media != null ? media : new ContentPart.Opaque(part.json().encode());
    }

    /** Whether {@code uri} is a YouTube video's, which Gemini's {@code fileData} takes without a media type. */
    private static boolean isYouTube(String uri) {
        return uri != null && (uri.startsWith("https://www.youtube.com/") || uri.startsWith("https://youtube.com/")
                || uri.startsWith("https://youtu.be/") || uri.startsWith("https://m.youtube.com/"));
    }

    /** The audio of an OpenAI {@code input_audio} part; of no data (no tokens) when it holds none. */
    public static ContentPart.Audio ofOpenAiPart(FieldReader part) {
        FieldReader audio = part.optionalObject("input_audio");
        String data = audio == null ? null : audio.optionalString("data");
        String format = audio == null ? null : audio.optionalString("format");
        return new ContentPart.Audio(MediaSource.Inline.of("audio/" + format, data == null ? "" : data));
    }
}
