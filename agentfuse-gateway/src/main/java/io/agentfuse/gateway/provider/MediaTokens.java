package io.agentfuse.gateway.provider;

import io.agentfuse.agent.tokens.AudioTokens;
import io.agentfuse.agent.tokens.DocumentTokens;
import io.agentfuse.agent.tokens.ImageAccounting;
import io.agentfuse.agent.tokens.ImageTokens;
import io.agentfuse.agent.tokens.VideoTokens;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;

/**
 * What the agent module's counters make of the media of the neutral model: an image by its pixels,
 * a document by its pages, audio and video by their seconds, never by their bytes. Inline media is read where its
 * base64 lies ({@link MediaSource.Inline#base64Chars()}), without a copy; media by URL is read from
 * its URL, which holds no data the counters can read (the count of media whose size is not known).
 * The one place that says so for the context ladder, the token counts and the provider limits that
 * an image's size decides. Stateless and thread-safe.
 *
 * <pre>{@code
 * int tokens = MediaTokens.of(new ContentPart.Image("data:image/png;base64,iVBOR..."), ImageAccounting.CLAUDE);
 * }</pre>
 */
public final class MediaTokens {

    private MediaTokens() {
    }

    /**
     * The tokens of {@code part}, an {@link ContentPart.Image} (by {@code images}), a
     * {@link ContentPart.Document}, a piece of {@link ContentPart.Audio} or a {@link ContentPart.Video}.
     *
     * @throws IllegalArgumentException for a part of another kind
     */
    public static int of(ContentPart part, ImageAccounting images) {
        if (part instanceof ContentPart.Image image) {
            return image.source() instanceof MediaSource.Inline inline ? ImageTokens.ofBase64(inline.base64Chars(), images)
                    : ImageTokens.of(image.source().url(), images);
        }
        if (part instanceof ContentPart.Document document) {
            return document.source() instanceof MediaSource.Inline inline ? DocumentTokens.ofBase64(inline.base64Chars())
                    : DocumentTokens.of(document.source().url());
        }
        if (part instanceof ContentPart.Audio audio) {
            return audio.source() instanceof MediaSource.Inline inline
                    ? AudioTokens.ofBase64(inline.mediaType(), inline.base64Chars())
                    : AudioTokens.of(audio.source().url());
        }
        if (part instanceof ContentPart.Video video) {
            return video.source() instanceof MediaSource.Inline inline ? VideoTokens.ofBase64(inline.base64Chars())
                    : VideoTokens.of(video.source().url());
        }
        throw new IllegalArgumentException("not media: " + part.getClass().getSimpleName());
    }

    /** The longer side in pixels of the image of {@code source}, or {@code -1} when its size cannot be read. */
    public static int longestSide(MediaSource source) {
        return source instanceof MediaSource.Inline inline ? ImageTokens.longestSideOfBase64(inline.base64Chars())
                : ImageTokens.longestSide(source.url());
    }
}
