package io.agentfuse.gateway.context;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The input tokens providers reported for prompts the gateway sent as their callers wrote them, by
 * upstream model and {@linkplain PromptKeys prompt key}: the truth about a conversation's earlier part,
 * where the ladder's count of Claude or Gemini is an estimate 10 to 50 % off either way. An agent's next
 * request is its last one, the answer and a new message; that last one's report makes the ladder's count
 * of the next ({@link #find}), as Claude Code counts its own context.
 *
 * <p>Bounded: a fixed table of {@code capacity} entries (two-way set associative, a full set losing
 * one of its two), one per prompt reported, so that memory does not grow with the conversations served;
 * an agent needs only its last turn's entry, so a few thousand serve many more than the 64 agents a
 * gateway may run at once. A lookup is one hash step and two comparisons, never a scan.
 *
 * <p>Thread-safe without locks: entries are immutable and published through an atomic array; a
 * report lost to a race is a count estimated once more.
 */
final class ReportedPrompts {

    /** Reports kept by a ladder: about 160 KB when full. */
    static final int DEFAULT_CAPACITY = 4_096;
    /** Prefixes a request is looked up by, of its message count {@code n}: itself, then the typical agent step first. */
    private static final int[] CANDIDATES = {0, 2, 1, 3, 4};
    /** The most messages fewer than a request that a report it begins with may cover ({@link PromptKeys#of} keys those prefixes). */
    static final int MOST_FEWER = Arrays.stream(CANDIDATES).max().orElseThrow();

    private final AtomicReferenceArray<Entry> slots;
    private final int mask;

    /** @param capacity the most reports kept; rounded up to a power of two, at least 2 */
    ReportedPrompts(int capacity) {
        if (capacity < 1 || capacity > (1 << 24)) {
            throw new IllegalArgumentException("capacity must be in [1, 16777216], but was " + capacity);
        }
        int size = Math.max(2, Integer.highestOneBit(capacity - 1) << 1);
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    /** Remembers that {@code upstreamModel}'s provider read {@code inputTokens} for the prompt of key {@code key}. */
    void record(String upstreamModel, long key, long inputTokens) {
        if (inputTokens <= 0) {
            return; // no account of the call: nothing to calibrate by
        }
        Entry entry = new Entry(upstreamModel, key, inputTokens);
        int first = setOf(upstreamModel, key);
        Entry held = slots.getAcquire(first);
        int slot = held == null || held.matches(upstreamModel, key) ? first
                : slots.getAcquire(first + 1) == null || slots.getAcquire(first + 1).matches(upstreamModel, key) ? first + 1
                : first + (int) (key >>> 63);
        slots.setRelease(slot, entry);
    }

    /**
     * The reported prompt that a request of {@code prefixes} ({@link PromptKeys#of}) to {@code upstreamModel}
     * begins with, of at least one message: the request itself, else one of a few messages fewer (an
     * agent's turn adds its answer and one message); {@code null} when none was reported.
     */
    Calibration find(String upstreamModel, PromptKeys.Prefixes prefixes) {
        for (int fewer : CANDIDATES) {
            int prefix = prefixes.messages() - fewer;
            if (prefix < 1) {
                continue;
            }
            Entry entry = find(upstreamModel, prefixes.keyOf(prefix));
            if (entry != null) {
                return new Calibration(prefix, entry.inputTokens);
            }
        }
        return null;
    }

    private Entry find(String upstreamModel, long key) {
        int first = setOf(upstreamModel, key);
        Entry entry = slots.getAcquire(first);
        if (entry != null && entry.matches(upstreamModel, key)) {
            return entry;
        }
        entry = slots.getAcquire(first + 1);
        return entry != null && entry.matches(upstreamModel, key) ? entry : null;
    }

    private int setOf(String upstreamModel, long key) {
        return (int) (key ^ (key >>> 32) ^ upstreamModel.hashCode() * 0x9E3779B9L) & mask & ~1;
    }

    /** The size of the table, for tests of its bound. */
    int capacity() {
        return slots.length();
    }

    /**
     * What a provider reported of the start of a request: its first {@code messages} messages, with the
     * system prompt and tools, were {@code inputTokens} tokens of input.
     */
    record Calibration(int messages, long inputTokens) {
    }

    private record Entry(String upstreamModel, long key, long inputTokens) {
        boolean matches(String otherModel, long otherKey) {
            return key == otherKey && upstreamModel.equals(otherModel);
        }
    }
}
