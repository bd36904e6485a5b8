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
 * fixed table of {@code capacity} slots; a value that hashes to a taken slot replaces what was there.
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

    private final AtomicReferenceArray<Slot<V>> slots;
    private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
    private final int mask;

    /** @param capacity the slots; rounded up to a power of two */
    public DerivedValues(int capacity) {
        if (capacity < 1 || capacity > (1 << 24)) {
            throw new IllegalArgumentException("capacity must be in [1, 16777216], but was " + capacity);
        }
        int size = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    /** What was derived from this very {@code value}, or {@code null}. */
    public V get(Object value) {
        if (!ValueMemo.isShared(value)) {
            return null;
        }
        Slot<V> slot = slots.getAcquire(System.identityHashCode(value) & mask);
        return slot != null && slot.get() == value ? slot.derived : null;
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
            int index = System.identityHashCode(value) & mask;
            slots.setRelease(index, new Slot<>(value, derived, index, collected));
        }
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
