package io.agentfuse.agent.tokens;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.Objects;

/**
 * Counts exactly as an OpenAI model's tokenizer does, with the tiktoken encodings of jtokkit.
 *
 * <p>Special-token markers such as {@code <|endoftext|>} in user text are counted as the
 * ordinary text they are, never rejected. Each encoding's vocabulary is loaded once per process,
 * on the first text counted (not bounded), and shared: encodings are immutable and thread-safe,
 * and so is this counter. {@link #upperBoundText(String)} bounds a count without tokenising and
 * without the vocabulary (o200k_base's holds over 40 MB of heap), for a fraction of its cost: a
 * gateway whose requests the bound settles never loads it.
 *
 * <pre>{@code
 * TokenCounter counter = TiktokenCounter.o200k();
 * counter.countText("hello world");   // 2
 * }</pre>
 */
public final class TiktokenCounter implements TokenCounter {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final EncodingType type;
    private final BytePairBound bound;
    private volatile Encoding encoding;

    TiktokenCounter(EncodingType type) {
        this.type = type;
        this.bound = BytePairBound.forEncoding(type.getName());
    }

    /** A counter for {@code type}, such as {@link EncodingType#CL100K_BASE}. */
    public static TiktokenCounter of(EncodingType type) {
        Objects.requireNonNull(type, "type");
        return switch (type) {
            case O200K_BASE -> Holder.O200K;
            case CL100K_BASE -> Holder.CL100K;
            default -> new TiktokenCounter(type);
        };
    }

    /** The {@code o200k_base} counter: gpt-4o, gpt-4.1, gpt-5 and the o-series. */
    public static TiktokenCounter o200k() {
        return Holder.O200K;
    }

    /** The {@code cl100k_base} counter: gpt-4 and gpt-3.5. */
    public static TiktokenCounter cl100k() {
        return Holder.CL100K;
    }

    /**
     * A long text is counted in pieces ({@link CountingPieces}): exact where it has spaces, in time
     * and heap proportional to its length always.
     */
    @Override
    public int countText(String text) {
        if (CountingPieces.isOnePiece(text)) {
            return text.isEmpty() ? 0 : encoding().countTokensOrdinary(text);
        }
        Encoding encoding = encoding();
        int count = 0;
        for (int start = 0, end; start < text.length(); start = end) {
            end = CountingPieces.end(text, start);
            count += encoding.countTokensOrdinary(text.substring(start, end));
        }
        return count;
    }

    // Two threads counting first may both look the encoding up; the registry loads it once.
    private Encoding encoding() {
        Encoding loaded = encoding;
        if (loaded == null) {
            loaded = REGISTRY.getEncoding(type);
            encoding = loaded;
        }
        return loaded;
    }

    /**
     * A proven bound in one pass over the chars, about two thirds of the UTF-8 bytes for ASCII
     * text ({@link BytePairBound} gives the argument); the UTF-8 bytes for encodings it does not cover.
     */
    @Override
    public int upperBoundText(String text) {
        return bound != null ? bound.upperBound(text) : utf8BytesAtMost(text);
    }

    private static int utf8BytesAtMost(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        return (int) Math.min(Integer.MAX_VALUE, bytes);
    }

    /** Whether this counter has loaded its encoding's vocabulary (it has counted a text). */
    boolean vocabularyLoaded() {
        return encoding != null;
    }

    /** The encoding's name, such as {@code "o200k_base"}. */
    public String encodingName() {
        return type.getName();
    }

    @Override
    public String toString() {
        return "TiktokenCounter[" + encodingName() + "]";
    }

    private static final class Holder {
        static final TiktokenCounter O200K = new TiktokenCounter(EncodingType.O200K_BASE);
        static final TiktokenCounter CL100K = new TiktokenCounter(EncodingType.CL100K_BASE);
    }
}
