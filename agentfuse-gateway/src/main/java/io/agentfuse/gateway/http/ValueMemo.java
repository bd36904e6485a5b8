package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Remembers the decoded values of long JSON values seen in recent request bodies, by their bytes:
 * an agent resends its whole conversation every turn, so nearly every message of a request was
 * decoded before, byte for byte. Finding one costs a hash of the first {@value #WINDOW} bytes
 * from where it starts and a comparison of all of its bytes ({@link Arrays#equals(byte[], int,
 * int, byte[], int, int)}, vectorised), against decoding it afresh: about a tenth. The window may
 * reach past a short value into what follows it (where it ends is not known before it is found);
 * then a value in a new place is not found, which costs a decode, never a wrong value.
 *
 * <p><b>Crowded windows.</b> Values that share their first {@value #WINDOW} bytes share one set of
 * {@value #WAYS} entries, and more of them than that would push each other out on every turn (an
 * agent's tool answers that start alike, the same reminder opening many messages). So a value
 * remembered beside an entry of the same window but other bytes marks that entry with how many bytes
 * tell the two apart, and is kept under the hash of that many: a lookup that meets the mark without
 * a match hashes further ({@link PrefixHash}: its deepest window's bytes once). Values that do not
 * crowd pay nothing for it; values alike in more than their first {@value #DEEPEST} bytes share a
 * set again, so that a lookup that misses never hashes more than that.
 *
 * <p><b>Exact, not probabilistic.</b> A value is taken from the memo only when the bytes at hand
 * start with all of its remembered bytes; the hash only says where to look. Since those bytes were
 * one complete JSON value when they were decoded, and a JSON value's end follows from its own bytes,
 * the value at hand is that value and ends where it ended. Remembered values are deeply unmodifiable
 * ({@link JsonObject}s over {@link FrozenMap}s), because every request that finds one shares it.
 *
 * <p><b>Bounded.</b> At most {@code capacity} values and {@code maxBytes} of their bytes (their
 * decoded form holds about as much again); values shorter than {@value #KEY_BYTES} bytes are not
 * remembered (decoding them costs about what finding them would), nor values longer than an eighth
 * of {@code maxBytes}. Entries are replaced by a CLOCK: a value found since the hand last passed
 * stays.
 *
 * <p>Thread-safe: finding is lock-free (entries are immutable and published through an atomic
 * array); remembering takes a lock, and happens only for values not found.
 *
 * <pre>{@code
 * ValueMemo memo = new ValueMemo(8_192, 16 << 20);
 * ValueMemo.Remembered known = memo.find(bytes, at, end);   // null: decode it, then memo.remember(..)
 * }</pre>
 */
public final class ValueMemo {

    /** Values shorter than this are not remembered: decoding them costs about what finding them would. */
    public static final int KEY_BYTES = 64;
    /** Values are found by the hash of this many bytes from their start (fewer at the end of a body). */
    static final int WINDOW = 128;

    private static final int WAYS = 4;
    /** The most windows a lookup hashes: each one further needs values sharing all the bytes of the last. */
    private static final int LEVELS = 8;
    /**
     * The longest window: values sharing more bytes than this share a set. A lookup that misses
     * hashes at most this many bytes, which may run past the value at hand into the rest of the body.
     */
    static final int DEEPEST = 4_096;

    private final AtomicReferenceArray<Remembered> slots;
    private final int setMask;
    private final long maxBytes;
    private long bytesHeld;
    private int hand;

    /**
     * @param capacity the most values remembered; rounded up to a power of two, at least {@value #WAYS}
     * @param maxBytes the most bytes of remembered values, at least {@value #KEY_BYTES}
     */
    public ValueMemo(int capacity, long maxBytes) {
        if (capacity < 1 || capacity > (1 << 24)) {
            throw new IllegalArgumentException("capacity must be in [1, 16777216], but was " + capacity);
        }
        if (maxBytes < KEY_BYTES) {
            throw new IllegalArgumentException("maxBytes must be >= " + KEY_BYTES + ", but was " + maxBytes);
        }
        int size = Math.max(WAYS, Integer.highestOneBit(capacity - 1) << 1);
        this.slots = new AtomicReferenceArray<>(size);
        this.setMask = size / WAYS - 1;
        this.maxBytes = maxBytes;
    }

    /**
     * The remembered value whose bytes {@code bytes} holds from {@code at} on (before {@code end}),
     * or {@code null}.
     */
    public Remembered find(byte[] bytes, int at, int end) {
        if (end - at < KEY_BYTES) {
            return null;
        }
        PrefixHash prefix = new PrefixHash(bytes, at, end);
        int window = WINDOW;
        for (int level = 0; level < LEVELS; level++) {
            long key = prefix.upTo(window);
            int first = ((int) key & setMask) * WAYS;
            Remembered crowded = null;
            for (int way = 0; way < WAYS; way++) {
                Remembered entry = slots.getAcquire(first + way);
                if (entry != null && entry.key == key) {
                    if (entry.matches(bytes, at, end)) {
                        entry.found = true; // a benign race: the hand reads a hint, not a count
                        return entry;
                    }
                    crowded = entry.deeper > window ? entry : crowded;
                }
            }
            if (crowded == null) {
                return null;
            }
            crowded.found = true; // the crowd is still met: keep the entry that leads to it
            window = crowded.deeper;
        }
        return null;
    }

    /**
     * Remembers {@code value}, decoded from {@code bytes[from, to)} (one complete JSON value in a
     * body that ends at {@code end}), if
     * it is long enough to be worth it and short enough to fit; it is frozen first.
     *
     * @param repeatedKey whether an object inside it repeats a key
     * @return the value as remembered (frozen), or {@code value} itself when it is not remembered:
     *         what the request that decoded it should use, so that it shares what later ones will
     */
    public Object remember(byte[] bytes, int from, int to, int end, Object value, boolean repeatedKey) {
        int length = to - from;
        if (length < KEY_BYTES || length > maxBytes / 8) {
            return value;
        }
        byte[] copy = Arrays.copyOfRange(bytes, from, to);
        Object frozen = freeze(value);
        synchronized (this) {
            PrefixHash prefix = new PrefixHash(bytes, from, end);
            long key = prefix.upTo(WINDOW);
            for (int level = 1, window = WINDOW; level < LEVELS; level++) {
                Remembered crowding = sameKeyIn(key, window);
                if (crowding == null) {
                    break;
                }
                if (crowding.deeper <= window) {
                    int differ = Arrays.mismatch(crowding.bytes, copy);
                    if (differ < 0) {
                        return crowding.value; // another request remembered it meanwhile
                    }
                    if (differ < window || differ >= DEEPEST) {
                        break; // the window's hashes collide, not its bytes, or the values are too alike: share the set
                    }
                    crowding.deeper = differ + 1;
                    crowding.found = true;
                }
                window = crowding.deeper;
                key = prefix.upTo(window);
            }
            Remembered entry = new Remembered(key, copy, frozen, repeatedKey);
            int first = ((int) key & setMask) * WAYS;
            int slot = victimIn(first, key);
            Remembered old = slots.get(slot);
            bytesHeld += length - (old == null ? 0 : old.bytes.length);
            slots.setRelease(slot, entry);
            while (bytesHeld > maxBytes) {
                evictNext(slot);
            }
            return entry.value;
        }
    }

    // An entry of the set of key with that key, one that leads deeper than window first.
    private Remembered sameKeyIn(long key, int window) {
        int first = ((int) key & setMask) * WAYS;
        Remembered same = null;
        for (int way = 0; way < WAYS; way++) {
            Remembered entry = slots.get(first + way);
            if (entry != null && entry.key == key && (same == null || entry.deeper > window)) {
                same = entry;
            }
        }
        return same;
    }

    /** How many bytes of values are remembered now. */
    public synchronized long bytesHeld() {
        return bytesHeld;
    }

    // An empty way, else one not found since the hand passed, else the way the key's high bits pick.
    private int victimIn(int first, long key) {
        int notFound = -1;
        for (int way = 0; way < WAYS; way++) {
            Remembered entry = slots.get(first + way);
            if (entry == null) {
                return first + way;
            }
            if (!entry.found && notFound < 0) {
                notFound = first + way;
            }
        }
        return notFound >= 0 ? notFound : first + (int) (key >>> 62);
    }

    // The CLOCK hand: a value found since its last pass loses that mark, one not found goes.
    private void evictNext(int keep) {
        hand = (hand + 1) % slots.length();
        Remembered entry = slots.get(hand);
        if (entry == null || hand == keep) {
            return;
        }
        if (entry.found) {
            entry.found = false;
        } else {
            slots.setRelease(hand, null);
            bytesHeld -= entry.bytes.length;
        }
    }

    /**
     * {@code value} with every object and array in it made unmodifiable (and wrapped, if it was a raw
     * map or list); a decoded value is that already, and is taken as it is.
     */
    static Object freeze(Object value) {
        if (FrozenMap.of(value) != null || value instanceof JsonArray array && FrozenMap.isFrozen(array)) {
            return value; // decoded: frozen all the way down, since values are frozen as they are decoded
        }
        if (value instanceof JsonObject object) {
            return freezeObject(object.getMap());
        }
        if (value instanceof Map<?, ?> map) {
            return freezeObject(map);
        }
        if (value instanceof JsonArray array) {
            return freezeArray(array.getList());
        }
        if (value instanceof List<?> list) {
            return freezeArray(list);
        }
        return value;
    }

    private static JsonObject freezeObject(Map<?, ?> fields) {
        FrozenMap.Builder frozen = new FrozenMap.Builder();
        for (Map.Entry<?, ?> field : fields.entrySet()) {
            frozen.put((String) field.getKey(), freeze(field.getValue()));
        }
        return frozen.build();
    }

    private static JsonArray freezeArray(List<?> elements) {
        List<Object> frozen = new ArrayList<>(elements.size());
        for (Object element : elements) {
            frozen.add(freeze(element));
        }
        return new JsonArray(Collections.unmodifiableList(frozen));
    }

    /** One remembered value: its bytes and what they decode to. */
    public static final class Remembered {
        final long key;
        final byte[] bytes;
        final Object value;
        final boolean repeatedKey;
        boolean found;
        /** 0, or how many bytes from their start tell apart the values that share this one's key (written under the lock). */
        int deeper;

        Remembered(long key, byte[] bytes, Object value, boolean repeatedKey) {
            this.key = key;
            this.bytes = bytes;
            this.value = value;
            this.repeatedKey = repeatedKey;
        }

        /** The decoded value, deeply unmodifiable: a {@code JsonObject}, {@code JsonArray} or {@code String}. */
        public Object value() {
            return value;
        }

        /** How many bytes the value takes. */
        public int length() {
            return bytes.length;
        }

        /** Whether an object inside the value repeats a key. */
        public boolean repeatedKey() {
            return repeatedKey;
        }

        boolean matches(byte[] other, int at, int end) {
            return bytes.length <= end - at && Arrays.equals(bytes, 0, bytes.length, other, at, at + bytes.length);
        }
    }
}
