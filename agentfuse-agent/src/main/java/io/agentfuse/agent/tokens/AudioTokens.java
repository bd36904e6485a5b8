package io.agentfuse.agent.tokens;

import java.util.Base64;
import java.util.Locale;

/**
 * The tokens of one piece of audio ({@link io.agentfuse.agent.conversation.RawBlock#AUDIO}: a Gemini
 * {@code inlineData} part of an {@code audio/*} type, an OpenAI {@code input_audio} part), by its
 * length in seconds: Gemini charges {@value #TOKENS_PER_SECOND} tokens a second of audio (a minute is
 * 1 920), the most of the published rates, and so the rate here for every model. Counted as the text
 * of its base64 instead, a minute of speech came to some 300 000 tokens; left out, as it was, it
 * counted nothing.
 *
 * <p>The length is read from a WAV header (its data over its byte rate); for any other format it is a
 * guess from the size of the data at a low bitrate for the format, so that it errs long: 32 kbit/s
 * for MP3, AAC and M4A, 16 kbit/s for Opus, Ogg, WebM and any type not named here, 128 kbit/s for
 * FLAC, 8 kHz 16-bit mono for raw PCM. Audio whose data is not at hand (a file URI) counts
 * {@value #UNKNOWN_SECONDS} seconds, a guess too; the provider's own limit answers what the guess
 * lets through. Stateless and thread-safe.
 *
 * <pre>{@code
 * int tokens = AudioTokens.of("data:audio/wav;base64,UklGRiQA...");
 * int same = AudioTokens.ofBase64("audio/wav", "UklGRiQA...");
 * }</pre>
 */
public final class AudioTokens {

    /** What Gemini charges for a second of audio. */
    static final int TOKENS_PER_SECOND = 32;
    /** The seconds of audio whose data is not at hand. */
    static final int UNKNOWN_SECONDS = 60;

    private static final String DATA = "data:";

    private AudioTokens() {
    }

    /**
     * The tokens of the audio in {@code source}: a data URL, or text (a raw block's JSON) holding one
     * whose {@code base64,} starts within its first {@value Base64Span#MAX_PREFIX_CHARS} characters and whose data
     * runs to the next quote or to the end.
     */
    public static int of(CharSequence source) {
        Base64Span data = Base64Span.in(source);
        if (data == null) {
            return UNKNOWN_SECONDS * TOKENS_PER_SECOND;
        }
        int type = Base64Span.indexOf(source, DATA, 0, data.marker());
        String mediaType = type < 0 ? "" : source.subSequence(type + DATA.length(), data.marker()).toString();
        return of(mediaType, source, data);
    }

    /**
     * The tokens of the audio of {@code mediaType} whose data is {@code base64}, its base64 alone (no
     * data URL's head, no JSON around it), read where it lies, without a copy.
     */
    public static int ofBase64(String mediaType, CharSequence base64) {
        return of(mediaType, base64, Base64Span.whole(base64));
    }

    private static int of(String mediaType, CharSequence source, Base64Span data) {
        return ofSeconds(seconds(mediaType.replace(";", "").toLowerCase(Locale.ROOT), data.bytes(), source,
                data.start(), data.end()));
    }

    /** The tokens of {@code seconds} of audio, rounded up. */
    static int ofSeconds(double seconds) {
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(seconds * TOKENS_PER_SECOND));
    }

    private static double seconds(String mediaType, long bytes, CharSequence source, int from, int end) {
        if (mediaType.contains("wav")) {
            byte[] head = wavHead(source, from, end);
            return head == null ? bytes / 16_000.0 : samples(head, bytes) / (double) littleEndian(head, 28);
        }
        return bytes / (double) guessedBytesPerSecond(mediaType);
    }

    /** The bytes of samples: the {@code data} chunk's size when it follows the format, else all but the header. */
    private static long samples(byte[] head, long bytes) {
        boolean data = head[36] == 'd' && head[37] == 'a' && head[38] == 't' && head[39] == 'a';
        return data ? Math.min(littleEndian(head, 40), bytes) : Math.max(0, bytes - 44);
    }

    private static int guessedBytesPerSecond(String mediaType) {
        if (mediaType.contains("mp3") || mediaType.contains("mpeg") || mediaType.contains("aac")
                || mediaType.contains("m4a") || mediaType.contains("mp4")) {
            return 4_000;
        }
        if (mediaType.contains("flac")) {
            return 16_000;
        }
        if (mediaType.contains("pcm") || mediaType.contains("l16")) {
            return 16_000;
        }
        return 2_000;
    }

    /** The first 48 bytes of a canonical WAV file ({@code RIFF}, {@code WAVE}, {@code fmt } first, a byte rate), or null. */
    private static byte[] wavHead(CharSequence source, int from, int end) {
        if (end - from < 64) {
            return null;
        }
        byte[] head;
        try {
            head = Base64.getDecoder().decode(source.subSequence(from, from + 64).toString());
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
        boolean wave = head[0] == 'R' && head[1] == 'I' && head[2] == 'F' && head[3] == 'F'
                && head[8] == 'W' && head[9] == 'A' && head[10] == 'V' && head[11] == 'E'
                && head[12] == 'f' && head[13] == 'm' && head[14] == 't';
        return wave && littleEndian(head, 28) > 0 ? head : null;
    }

    private static long littleEndian(byte[] bytes, int at) {
        return (bytes[at] & 0xFFL) | (bytes[at + 1] & 0xFFL) << 8 | (bytes[at + 2] & 0xFFL) << 16 | (bytes[at + 3] & 0xFFL) << 24;
    }
}
