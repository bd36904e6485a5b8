package io.agentfuse.agent.tokens;

import com.knuddels.jtokkit.api.EncodingType;

/** The process-wide counters of {@link TokenCounter#forModel(String)}: one cache per encoding. */
final class SharedCounters {

    private SharedCounters() {
    }

    static TokenCounter forEncoding(EncodingType type) {
        return switch (type) {
            case O200K_BASE -> O200k.INSTANCE;
            case CL100K_BASE -> Cl100k.INSTANCE;
            default -> new CachingTokenCounter(TiktokenCounter.of(type), CachingTokenCounter.DEFAULT_CAPACITY);
        };
    }

    static TokenCounter estimate() {
        return Estimate.INSTANCE;
    }

    // One holder each, so that a process using one encoding never loads the other's vocabulary.
    private static final class O200k {
        static final CachingTokenCounter INSTANCE =
                new CachingTokenCounter(TiktokenCounter.o200k(), CachingTokenCounter.DEFAULT_CAPACITY);
    }

    private static final class Cl100k {
        static final CachingTokenCounter INSTANCE =
                new CachingTokenCounter(TiktokenCounter.cl100k(), CachingTokenCounter.DEFAULT_CAPACITY);
    }

    private static final class Estimate {
        static final CachingTokenCounter INSTANCE =
                new CachingTokenCounter(EstimatingTokenCounter.standard(), CachingTokenCounter.DEFAULT_CAPACITY);
    }
}
