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
 * ordinary text they are, never rejected. Each encoding is loaded once per process, on first
 * use, and shared: encodings are immutable and thread-safe, and so is this counter.
 *
 * <pre>{@code
 * TokenCounter counter = TiktokenCounter.o200k();
 * counter.countText("hello world");   // 2
 * }</pre>
 */
public final class TiktokenCounter implements TokenCounter {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final Encoding encoding;

    private TiktokenCounter(Encoding encoding) {
        this.encoding = encoding;
    }

    /** A counter for {@code type}, such as {@link EncodingType#CL100K_BASE}. */
    public static TiktokenCounter of(EncodingType type) {
        Objects.requireNonNull(type, "type");
        return new TiktokenCounter(REGISTRY.getEncoding(type));
    }

    /** The {@code o200k_base} counter: gpt-4o, gpt-4.1, gpt-5 and the o-series. */
    public static TiktokenCounter o200k() {
        return Holder.O200K;
    }

    /** The {@code cl100k_base} counter: gpt-4 and gpt-3.5. */
    public static TiktokenCounter cl100k() {
        return Holder.CL100K;
    }

    @Override
    public int countText(String text) {
        return text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    /** The encoding's name, such as {@code "o200k_base"}. */
    public String encodingName() {
        return encoding.getName();
    }

    @Override
    public String toString() {
        return "TiktokenCounter[" + encodingName() + "]";
    }

    // Loaded on first use only: reading a vocabulary costs tens of milliseconds.
    private static final class Holder {
        static final TiktokenCounter O200K = of(EncodingType.O200K_BASE);
        static final TiktokenCounter CL100K = of(EncodingType.CL100K_BASE);
    }
}
