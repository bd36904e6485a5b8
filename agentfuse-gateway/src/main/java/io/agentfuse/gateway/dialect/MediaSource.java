package io.agentfuse.gateway.dialect;

import java.nio.CharBuffer;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Where the data of an image, a document or a piece of audio of the neutral model is: with it
 * ({@link Inline}: a media type and base64) or at an address ({@link Url}).
 *
 * <p>Inline media keeps the form it came in and gives the other only to a writer whose wire needs
 * it, so that a screenshot's megabytes are not copied on their way through the gateway: Anthropic's
 * and Gemini's callers send the media type and the base64 apart, and their writers and Bedrock's
 * write that same base64 string; OpenAI's callers send a {@code data:} URL, which OpenAI's writers
 * write as it came. Only a crossing between the two forms copies the data, once per body written:
 * a data URL built for OpenAI's {@code image_url.url}, the base64 cut out of one for Anthropic's
 * {@code source.data}. The token counters read the base64 where it lies ({@link Inline#base64Chars()}).
 *
 * <p>Immutable and thread-safe. Two sources are equal when they say the same, whatever form they
 * came in: {@code MediaSource.of("data:image/png;base64,iVBOR")} equals
 * {@code MediaSource.Inline.of("image/png", "iVBOR")}.
 */
public sealed interface MediaSource permits MediaSource.Inline, MediaSource.Url {

    /** The head of a {@code data:} URL. */
    String DATA = "data:";

    /**
     * The source of media by {@code url}: inline when it is a {@code data:} URL of base64 (whatever
     * its media type; the parsers check that), else by its URL. Takes nothing out of {@code url}.
     */
    static MediaSource of(String url) {
        Inline inline = Inline.ofDataUrl(url);
        return inline != null ? inline : new Url(url);
    }

    /**
     * The URL of the media: its address, or the {@code data:} URL of its data, as OpenAI's dialects
     * write it; built (a copy of the data) when the data came apart from its media type.
     */
    String url();

    /** Whether its data travels with it (a {@code data:} URL, of base64 or not) rather than at an address. */
    boolean isData();

    /**
     * The inline media, for a dialect that takes the media type and the base64 apart; {@code null}
     * for media at an address.
     *
     * @throws UntranslatableException for a {@code data:} URL that is not base64, which only its own
     *                                 dialect may take
     */
    Inline inline();

    /**
     * Media by its URL, as the caller gave it: an address ({@code https://…}, a file URI), or a
     * {@code data:} URL that is not base64 (named untranslatable by the parser that read it).
     */
    record Url(String url) implements MediaSource {
        public Url {
            Objects.requireNonNull(url, "url");
        }

        @Override
        public boolean isData() {
            return url.startsWith(DATA);
        }

        @Override
        public Inline inline() {
            if (isData()) {
                throw new UntranslatableException("a data URL that is not base64");
            }
            return null;
        }
    }

    /**
     * Inline media: a media type and base64 data, held apart, or within the {@code data:} URL they came
     * in, whichever the caller sent; nothing is cut out or built until a writer asks for the other form.
     */
    final class Inline implements MediaSource {

        private static final String BASE64 = ";base64,";

        private final String mediaType;
        /** What {@link #counted} counted; -1 before. Written racily: every count of the same data is the same. */
        private volatile int counted = -1;
        /** The base64 alone ({@code start} 0), or the data URL it ends ({@code start} past its comma). */
        private final String text;
        private final int start;

        private Inline(String mediaType, String text, int start) {
            this.mediaType = Objects.requireNonNull(mediaType, "mediaType");
            this.text = Objects.requireNonNull(text, "text");
            this.start = start;
        }

        /** Media of {@code mediaType} whose data is {@code base64}, as Anthropic and Gemini give them. */
        public static Inline of(String mediaType, String base64) {
            return new Inline(mediaType, base64, 0);
        }

        /**
         * The media of {@code url} when it is a {@code data:} URL of base64 ({@code data:<type>;base64,<data>},
         * whatever its type), held within it; else {@code null}.
         */
        public static Inline ofDataUrl(String url) {
            if (!url.startsWith(DATA)) {
                return null;
            }
            int comma = url.indexOf(',');
            int marker = comma - BASE64.length() + 1;
            if (comma < 0 || marker < DATA.length() || !url.startsWith(BASE64, marker)) {
                return null;
            }
            return new Inline(url.substring(DATA.length(), marker), url, comma + 1);
        }

        /** The media type ({@code image/png}). */
        public String mediaType() {
            return mediaType;
        }

        /** The characters of base64, counted without cutting them out. */
        public int base64Length() {
            return text.length() - start;
        }

        /** The base64 where it lies, without a copy: for the token counters, which read its head or its length. */
        public CharSequence base64Chars() {
            return start == 0 ? text : CharBuffer.wrap(text, start, text.length());
        }

        /**
         * The base64, for a wire that carries it apart from the media type (Anthropic's {@code data},
         * Gemini's {@code inlineData.data}, Bedrock's {@code bytes}): the string it came as, or cut out
         * of the data URL it came in (a copy). A writer asks once per body it writes.
         */
        public String base64() {
            return start == 0 ? text : text.substring(start);
        }

        /**
         * What {@code count} makes of the decoded data (a PDF's pages), counted the first time it is
         * asked and kept on this source, which lives as long as the message that holds it (a resent
         * turn's own, from the decoder's memo): counting decodes megabytes, and a table of counts by
         * content would read them to look one up. Two threads asking at once may both count.
         */
        public int counted(ToIntFunction<Inline> count) {
            int known = counted;
            if (known < 0) {
                known = count.applyAsInt(this);
                counted = known;
            }
            return known;
        }

        /** Whether {@link #counted} has counted this source already. */
        public boolean isCounted() {
            return counted >= 0;
        }

        /** The data URL, as it came, or built of the media type and the base64 (a copy). */
        @Override
        public String url() {
            return start == 0 ? DATA + mediaType + BASE64 + text : text;
        }

        @Override
        public boolean isData() {
            return true;
        }

        @Override
        public Inline inline() {
            return this;
        }

        /** The same media type and the same base64, whatever form either came in. */
        @Override
        public boolean equals(Object other) {
            return other instanceof Inline that && mediaType.equals(that.mediaType)
                    && base64Length() == that.base64Length()
                    && text.regionMatches(start, that.text, that.start, base64Length());
        }

        @Override
        public int hashCode() {
            return mediaType.hashCode() * 31 + base64Length(); // not over megabytes of data
        }

        /** The media type and the length of the data: a screenshot's megabytes would swamp a log or a test's report. */
        @Override
        public String toString() {
            return "Inline[" + mediaType + ", " + base64Length() + " chars of base64]";
        }
    }
}
