package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.Message;
import java.lang.ref.WeakReference;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Remembers the token counts of recent messages, so that an agent's conversation, resent every
 * turn with the same prefix, is counted once per message instead of once per request.
 *
 * <p>Counts are kept per message in a fixed table of {@code capacity} slots (two-way set
 * associative), keyed by a 64-bit {@linkplain ContentHash content hash} and the message's length
 * in chars; a full set replaces one of its two entries. Memory is bounded by the capacity, a
 * lookup allocates nothing, and only a miss stores one small entry. Results are exactly the base
 * counter's: {@link #countMessage} answers a remembered count or counts with the base, and
 * {@link #upperBoundMessage} answers a remembered count (the exact value, the tightest bound) or
 * the base's bound. The bounds of long texts are remembered the same way, in a second table of
 * the same size, so that bounding a resent conversation costs about a hash of it; and long texts
 * by identity too (a third table, holding them weakly), which costs one comparison for a text seen before. Conversations are the reply priming plus their messages, as in
 * {@link TokenCounter}, so the base must count conversations that way (every counter here does but
 * {@link UsageAwareTokenCounter}, which may wrap this one instead).
 *
 * <p>Thread-safe without locks: entries are immutable and published through an atomic array; two
 * threads counting the same new message may both count it.
 *
 * <pre>{@code
 * TokenCounter counter = new CachingTokenCounter(TiktokenCounter.o200k(), 8_192);
 * counter.countConversation(turn1);
 * counter.countConversation(turn1.append(reply).append(next));   // counts the two new messages only
 * }</pre>
 */
public final class CachingTokenCounter implements TokenCounter {

    /** A capacity for one agent's conversations, and the least of the counters of {@link TokenCounter#forModel(String)}: about 0.8 MB when full (two tables). */
    public static final int DEFAULT_CAPACITY = 8_192;

    private final TokenCounter base;
    /**
     * Texts shorter than this are bounded afresh: a lookup would cost about as much. Bounding costs
     * about six times as much per char as hashing (1.6 ns against 0.25 ns), plus some 25 ns a lookup.
     */
    static final int REMEMBERED_BOUND_CHARS = 32;
    /**
     * Remembered texts are also known by identity, in sets of this many slots: a gateway that takes
     * a resent message's decoded value from its memo hands the very same {@code String} every turn,
     * and knowing it again costs a few comparisons instead of a hash of all of its chars.
     */
    private static final int SEEN_WAYS = 4;

    private final AtomicReferenceArray<Entry> slots;
    private final AtomicReferenceArray<Entry> bounds;
    private final AtomicReferenceArray<SeenText> seenTexts;
    private final int seenMask;
    private final byte[] seenTurns;
    private final int mask;

    /**
     * @param base     the counter whose message counts are remembered
     * @param capacity the most messages remembered; rounded up to a power of two, at least 2
     */
    public CachingTokenCounter(TokenCounter base, int capacity) {
        this.base = Objects.requireNonNull(base, "base");
        if (capacity < 1 || capacity > (1 << 24)) {
            throw new IllegalArgumentException("capacity must be in [1, 16777216], but was " + capacity);
        }
        int size = Math.max(2, Integer.highestOneBit(capacity - 1) << 1);
        this.slots = new AtomicReferenceArray<>(size);
        this.bounds = new AtomicReferenceArray<>(size);
        this.seenTexts = new AtomicReferenceArray<>(Math.max(SEEN_WAYS, size));
        this.seenMask = seenTexts.length() - 1;
        this.seenTurns = new byte[seenTexts.length() / SEEN_WAYS];
        this.mask = size - 1;
    }

    @Override
    public int countText(String text) {
        return base.countText(text);
    }

    /**
     * The base's bound, remembered for texts of at least {@value #REMEMBERED_BOUND_CHARS} chars:
     * hashing a text costs a fraction of bounding it, and a gateway bounds the same long texts of a
     * resent conversation on every turn, without counting them.
     */
    @Override
    public int upperBoundText(String text) {
        if (text.length() < REMEMBERED_BOUND_CHARS) {
            return base.upperBoundText(text);
        }
        SeenText seen = seen(text);
        if (seen != null) {
            return seen.tokens;
        }
        int bound = upperBoundByContent(text);
        rememberSeen(text, bound);
        return bound;
    }

    /**
     * The bound of a text shorter than {@value #REMEMBERED_BOUND_CHARS} chars (a few steps), or of
     * this very {@code String} object bounded before; else {@code -1}.
     */
    @Override
    public int knownUpperBoundText(String text) {
        if (text.length() < REMEMBERED_BOUND_CHARS) {
            return base.upperBoundText(text);
        }
        SeenText seen = seen(text);
        return seen != null ? seen.tokens : -1;
    }

    // The texts seen by identity: sets of four slots, as a conversation's hundred texts would
    // often meet in single ones.
    private SeenText seen(String text) {
        int first = System.identityHashCode(text) & seenMask & ~(SEEN_WAYS - 1);
        for (int way = 0; way < SEEN_WAYS; way++) {
            SeenText seen = seenTexts.getAcquire(first + way);
            if (seen != null && seen.get() == text) {
                return seen;
            }
        }
        return null;
    }

    // An empty way, or one whose text was collected, else the set's next in turn: the last four
    // texts put in a set stay (a conversation's texts that meet in one set do not push each other out).
    private void rememberSeen(String text, int bound) {
        int first = System.identityHashCode(text) & seenMask & ~(SEEN_WAYS - 1);
        int slot = first + (seenTurns[first / SEEN_WAYS]++ & (SEEN_WAYS - 1)); // a benign race: a hint
        for (int way = 0; way < SEEN_WAYS; way++) {
            SeenText seen = seenTexts.getAcquire(first + way);
            if (seen == null || seen.get() == null) {
                slot = first + way;
                break;
            }
        }
        seenTexts.setRelease(slot, new SeenText(text, bound));
    }

    private int upperBoundByContent(String text) {
        long hash = ContentHash.ofText(text);
        Entry known = find(bounds, hash, text.length());
        if (known != null) {
            return known.tokens;
        }
        int bound = base.upperBoundText(text);
        store(bounds, new Entry(hash, text.length(), bound));
        return bound;
    }

    @Override
    public int countMessage(Message message) {
        long hash = ContentHash.of(message);
        long chars = ContentHash.charsOf(message);
        Entry known = find(slots, hash, chars);
        if (known != null) {
            return known.tokens;
        }
        int tokens = base.countMessage(message);
        store(slots, new Entry(hash, chars, tokens));
        return tokens;
    }

    @Override
    public int upperBoundMessage(Message message) {
        Entry known = find(slots, ContentHash.of(message), ContentHash.charsOf(message));
        return known != null ? known.tokens : base.upperBoundMessage(message);
    }

    /** The base's: the counts remembered are the base's, images and all. */
    @Override
    public ImageAccounting imageAccounting() {
        return base.imageAccounting();
    }

    /** The counter this one remembers counts of. */
    public TokenCounter base() {
        return base;
    }

    private Entry find(AtomicReferenceArray<Entry> table, long hash, long chars) {
        int first = (int) hash & mask & ~1;
        Entry entry = table.getAcquire(first);
        if (entry != null && entry.matches(hash, chars)) {
            return entry;
        }
        entry = table.getAcquire(first + 1);
        return entry != null && entry.matches(hash, chars) ? entry : null;
    }

    // An empty slot of the pair if there is one, else the one the hash's high bit picks.
    private void store(AtomicReferenceArray<Entry> table, Entry entry) {
        int first = (int) entry.hash & mask & ~1;
        int slot = table.getAcquire(first) == null ? first
                : table.getAcquire(first + 1) == null ? first + 1
                : first + (int) (entry.hash >>> 63);
        table.setRelease(slot, entry);
    }

    @Override
    public String toString() {
        return "CachingTokenCounter[" + base + ", capacity " + slots.length() + "]";
    }

    /** A text seen, by identity, without keeping it alive, and its bound. */
    private static final class SeenText extends WeakReference<String> {
        final int tokens;

        SeenText(String text, int tokens) {
            super(text);
            this.tokens = tokens;
        }
    }

    private static final class Entry {
        final long hash;
        final long chars;
        final int tokens;

        Entry(long hash, long chars, int tokens) {
            this.hash = hash;
            this.chars = chars;
            this.tokens = tokens;
        }

        boolean matches(long otherHash, long otherChars) {
            return hash == otherHash && chars == otherChars;
        }
    }
}
