package io.agentfuse.agent.tokens;

import com.knuddels.jtokkit.api.EncodingType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The process-wide counters of {@link TokenCounter#forModel(String)}: one cache per encoding and
 * image accounting, made when first asked for. One per accounting, since a remembered count holds
 * the message's images as that accounting counts them.
 *
 * <p>Each remembers a message per 4 KiB of the heap's limit, between 8 192 and 131 072 (about 100
 * bytes each when full): 32 768 on a 128 MiB heap. A fixed 8 192 held the messages of some thirty
 * agents' 150 KB conversations; sixty-four resent in turn were bounded afresh on every request,
 * the CPU of the whole request several times over.
 */
final class SharedCounters {

    /** The messages each counter remembers. */
    static final int CAPACITY = (int) Math.min(1 << 17,
            Math.max(CachingTokenCounter.DEFAULT_CAPACITY, Runtime.getRuntime().maxMemory() / 4096));

    /** The counters of the estimate (no encoding of the model's own) and of each encoding, by accounting. */
    private static final Map<EncodingType, Map<ImageAccounting, TokenCounter>> BY_ENCODING = new ConcurrentHashMap<>();
    private static final Map<ImageAccounting, TokenCounter> ESTIMATES = new ConcurrentHashMap<>();
    private static final Map<ImageAccounting, TokenCounter> NEWER_CLAUDE_ESTIMATES = new ConcurrentHashMap<>();

    private SharedCounters() {
    }

    static TokenCounter forEncoding(EncodingType type, ImageAccounting images) {
        if (type != EncodingType.O200K_BASE && type != EncodingType.CL100K_BASE) {
            return new CachingTokenCounter(TiktokenCounter.of(type).withImages(images), CAPACITY);
        }
        // TiktokenCounter.of loads an encoding's vocabulary only when it first counts, so a process
        // using one encoding never loads the other's.
        return BY_ENCODING.computeIfAbsent(type, unused -> new ConcurrentHashMap<>())
                .computeIfAbsent(images, unused -> new CachingTokenCounter(TiktokenCounter.of(type).withImages(images),
                        CAPACITY));
    }

    static TokenCounter estimate(ImageAccounting images) {
        return ESTIMATES.computeIfAbsent(images, unused -> new CachingTokenCounter(
                EstimatingTokenCounter.standard().withImages(images), CAPACITY));
    }

    /** The estimate of the Claude models with the newer tokenizer ({@link EstimatingTokenCounter#newerClaude}). */
    static TokenCounter newerClaudeEstimate(ImageAccounting images) {
        return NEWER_CLAUDE_ESTIMATES.computeIfAbsent(images, unused -> new CachingTokenCounter(
                EstimatingTokenCounter.newerClaude().withImages(images), CAPACITY));
    }
}
