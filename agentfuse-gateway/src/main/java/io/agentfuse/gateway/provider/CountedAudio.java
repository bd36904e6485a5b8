package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.MediaSource;

/**
 * The audio of a caller's request that no other dialect takes the same way — a Gemini
 * {@code inlineData} or {@code fileData} part of an {@code audio/*} type, an OpenAI {@code input_audio}
 * part (Chat Completions' and the Responses API's, of one form) — as a {@link ContentPart.Audio},
 * carried into the neutral request only so that the context ladder and the token counts count it
 * (left out, it counted nothing). Its data is taken as it came, unchecked: it is only ever counted,
 * and the request goes as it came within its own dialect, while the parser names the part
 * untranslatable for the others. Its data is held as it came, apart from its media type, never
 * copied into a data URL. Stateless.
 *
 * <pre>{@code
 * ContentPart.Audio audio = CountedAudio.ofGeminiPart(part);  // null for a part that is not audio
 * }</pre>
 */
public final class CountedAudio {

    private CountedAudio() {
    }

    /** The audio of a Gemini part, or {@code null} for a part of anything else. */
    public static ContentPart.Audio ofGeminiPart(FieldReader part) {
        FieldReader inline = part.optionalObject("inlineData");
        FieldReader media = inline != null ? inline : part.optionalObject("fileData");
        String mimeType = media == null ? null : media.optionalString("mimeType");
        if (mimeType == null || !mimeType.startsWith("audio/")) {
            return null;
        }
        String data = inline != null ? inline.optionalString("data") : null;
        return new ContentPart.Audio(data != null ? MediaSource.Inline.of(mimeType, data)
                : MediaSource.of(String.valueOf(media.optionalString("fileUri"))));
    }

    /** The audio of an OpenAI {@code input_audio} part; of no data (no tokens) when it holds none. */
    public static ContentPart.Audio ofOpenAiPart(FieldReader part) {
        FieldReader audio = part.optionalObject("input_audio");
        String data = audio == null ? null : audio.optionalString("data");
        String format = audio == null ? null : audio.optionalString("format");
        return new ContentPart.Audio(MediaSource.Inline.of("audio/" + format, data == null ? "" : data));
    }
}
