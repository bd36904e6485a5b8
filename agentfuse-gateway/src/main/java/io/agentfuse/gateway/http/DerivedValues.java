package io.agentfuse.gateway.http;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * Remembers what was derived from the values a {@link ValueMemo} hands out, by their identity:
 * those values are shared, unmodifiable and handed out again every time their bytes come back, so
 * what a parser made of one (a conversation turn of the neutral model) holds for as long as the
 * value lives. Knowing one again costs an identity hash and one comparison.
 *
 * <p>Only values {@link ValueMemo#isShared shared} by a memo are remembered: any other value is new
 * with every request, and remembering it would only fill the table. Values are held weakly, so a
 * value the memo let go is not kept alive here, and what was derived from it is let go at the next
 * {@link #put} (as a {@code WeakHashMap} expunges): what this holds follows what the memo holds. A
 * fixed table of {@code capacity} slots in sets of four (a conversation's hundred messages would
 * often meet in a table of single slots); a value whose set is full replaces the oldest of the four.
 *
 * <p>Thread-safe without locks: slots are immutable and published through an atomic array.
 *
 * <pre>{@code
 * DerivedValues<Turn> turns = new DerivedValues<>(8_192);
 * Turn turn = turns.derive(element, untranslatable, notes -> parseTurn(element, notes));
 * }</pre>
 *
 * @param <V> what is derived
 */
public final class DerivedValues<V> {

    private static final int WAYS = 4;

    private final AtomicReferenceArray<Slot<V>> slots;
    private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
    private final int setMask;
    private final byte[] turns;

    /** @param capacity the slots; rounded up to a power of two, at least {@value #WAYS} */
    public DerivedValues(int capacity) {
        if (capacity < 1 || capacity > (1 << 24)) {
            throw new IllegalArgumentException("capacity must be in [1, 16777216], but was " + capacity);
        }
        int size = Math.max(WAYS, Integer.highestOneBit(Math.max(1, capacity - 1)) << 1);
        this.slots = new AtomicReferenceArray<>(size);
        this.setMask = size / WAYS - 1;
        this.turns = new byte[size / WAYS];
    }

    /** What was derived from this very {@code value}, or {@code null}. */
    public V get(Object value) {
        if (!ValueMemo.isShared(value)) {
            return null;
        }
        int first = (System.identityHashCode(value) & setMask) * WAYS;
        for (int way = 0; way < WAYS; way++) {
            Slot<V> slot = slots.getAcquire(first + way);
            if (slot != null && slot.get() == value) {
                return slot.derived;
            }
        }
        return null;
    }

    /**
     * What was derived from this very {@code value}, or what {@code derivation} derives from it now,
     * remembered unless the derivation noted something: its notes go to {@code notes}, and may name
     * this occurrence of the value (a parser's notes name a message's index in its request), so a
     * derivation with notes is made again for every request.
     */
    public V derive(Object value, List<String> notes, Function<List<String>, V> derivation) {
        V known = get(value);
        if (known != null) {
            return known;
        }
        List<String> noted = new ArrayList<>(0);
        V derived = derivation.apply(noted);
        if (noted.isEmpty()) {
            put(value, derived);
        } else {
            notes.addAll(noted);
        }
        return derived;
    }

    /** Remembers {@code derived} for this very {@code value}, if a memo shares it; else does nothing. */
    public void put(Object value, V derived) {
        if (ValueMemo.isShared(value)) {
            expunge();
            int index = freeWay((System.identityHashCode(value) & setMask) * WAYS);
            slots.setRelease(index, new Slot<>(value, derived, index, collected));
        }
    }

    // An empty way of the set, or one whose value was collected, else the set's next in turn: the
    // last four put in a set stay (a conversation's messages that meet in one set do not push each other out).
    private int freeWay(int first) {
        for (int way = 0; way < WAYS; way++) {
            Slot<V> slot = slots.get(first + way);
            if (slot == null || slot.get() == null) {
                return first + way;
            }
        }
        return first + (turns[first / WAYS]++ & (WAYS - 1)); // a benign race: a hint
    }

    // Empties the slots whose values were collected, unless a newer slot took their place.
    @SuppressWarnings("unchecked")
    private void expunge() {
        Reference<?> gone;
        while ((gone = collected.poll()) != null) {
            Slot<V> slot = (Slot<V>) gone;
            slots.compareAndSet(slot.index, slot, null);
        }
    }

    private static final class Slot<V> extends WeakReference<Object> {
        final V derived;
        final int index;

        Slot(Object value, V derived, int index, ReferenceQueue<Object> collected) {
            super(value, collected);
            this.derived = derived;
            this.index = index;
        }
    }
}
