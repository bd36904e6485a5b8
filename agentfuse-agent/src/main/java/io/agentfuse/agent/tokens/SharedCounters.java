package io.agentfuse.agent.tokens;

import com.knuddels.jtokkit.api.EncodingType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The process-wide counters of {@link TokenCounter#forModel(String)}: one cache per encoding and
 * image accounting, made when first asked for. One per accounting, since a remembered count holds
 * the message's images as that accounting counts them.
 */
final class SharedCounters {

    /** The counters of the estimate (no encoding of the model's own) and of each encoding, by accounting. */
    private static final Map<EncodingType, Map<ImageAccounting, TokenCounter>> BY_ENCODING = new ConcurrentHashMap<>();
    private static final Map<ImageAccounting, TokenCounter> ESTIMATES = new ConcurrentHashMap<>();

    private SharedCounters() {
    }

    static TokenCounter forEncoding(EncodingType type, ImageAccounting images) {
        if (type != EncodingType.O200K_BASE && type != EncodingType.CL100K_BASE) {
            return new CachingTokenCounter(TiktokenCounter.of(type).withImages(images), CachingTokenCounter.DEFAULT_CAPACITY);
        }
        // TiktokenCounter.of loads an encoding's vocabulary only when it first counts, so a process
        // using one encoding never loads the other's.
        return BY_ENCODING.computeIfAbsent(type, unused -> new ConcurrentHashMap<>())
                .computeIfAbsent(images, unused -> new CachingTokenCounter(TiktokenCounter.of(type).withImages(images),
                        CachingTokenCounter.DEFAULT_CAPACITY));
    }

    static TokenCounter estimate(ImageAccounting images) {
        return ESTIMATES.computeIfAbsent(images, unused -> new CachingTokenCounter(
                EstimatingTokenCounter.standard().withImages(images), CachingTokenCounter.DEFAULT_CAPACITY));
    }
}
