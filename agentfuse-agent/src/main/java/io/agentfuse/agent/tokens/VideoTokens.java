package io.agentfuse.agent.tokens;

/**
 * The tokens of one video ({@link io.agentfuse.agent.conversation.RawBlock#VIDEO}: a Gemini
 * {@code inlineData} or {@code fileData} part of a {@code video/*} type), by its length in seconds:
 * Gemini charges {@value #TOKENS_PER_SECOND} tokens a second of video, its frames and its sound
 * together ("Understand and count tokens", ai.google.dev/gemini-api/docs/tokens), and no other
 * provider the gateway speaks to takes video. Left out, as it was, a video counted nothing.
 *
 * <p>The length of a video cannot be read from the head of its data (an MP4 keeps it in a
 * {@code moov} box that as often sits after the frames, at the end), so it is a guess from the size
 * of the data at {@value #GUESSED_BYTES_PER_SECOND} bytes a second (500 kbit/s, a low bitrate for
 * video), so that it errs long: a clip of a higher bitrate (most are) counts more seconds than it
 * has, which only makes the context ladder act early, while a guess that erred short would let a
 * window's worth of video through as if it were small. A video whose data is not at hand (a file
 * URI, a YouTube link) counts {@value AudioTokens#UNKNOWN_SECONDS} seconds, a guess too; the
 * provider's own limit answers what the guess lets through. Stateless and thread-safe.
 *
 * <pre>{@code
 * int tokens = VideoTokens.of("data:video/mp4;base64,AAAAIGZ0eXBpc29t...");
 * int same = VideoTokens.ofBase64("AAAAIGZ0eXBpc29t...");
 * }</pre>
 */
public final class VideoTokens {

    /** What Gemini charges for a second of video. */
    static final int TOKENS_PER_SECOND = 263;
    /** The bitrate the seconds of a video are guessed at, in bytes a second: 500 kbit/s. */
    static final int GUESSED_BYTES_PER_SECOND = 62_500;

    private VideoTokens() {
    }

    /**
     * The tokens of the video in {@code source}: a data URL, or text (a raw block's JSON) holding one
     * whose {@code base64,} starts within its first {@value Base64Span#MAX_PREFIX_CHARS} characters and
     * whose data runs to the next quote or to the end; a video by address counts its guessed seconds.
     */
    public static int of(CharSequence source) {
        Base64Span data = Base64Span.in(source);
        return data == null ? ofSeconds(AudioTokens.UNKNOWN_SECONDS) : ofBytes(data.bytes());
    }

    /** The tokens of the video whose data is {@code base64}, its base64 alone, read where it lies, without a copy. */
    public static int ofBase64(CharSequence base64) {
        return ofBytes(Base64Span.whole(base64).bytes());
    }

    private static int ofBytes(long bytes) {
        return ofSeconds(bytes / (double) GUESSED_BYTES_PER_SECOND);
    }

    /** The tokens of {@code seconds} of video, rounded up. */
    static int ofSeconds(double seconds) {
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(seconds * TOKENS_PER_SECOND));
    }
}
