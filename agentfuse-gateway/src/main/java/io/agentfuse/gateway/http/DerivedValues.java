package io.agentfuse.gateway.http;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Remembers what was derived from the values a {@link ValueMemo} hands out, by their identity:
 * those values are shared, unmodifiable and handed out again every time their bytes come back, so
 * what a parser made of one (a conversation turn of the neutral model) holds for as long as the
 * value lives. Knowing one again costs an identity hash and one comparison.
 *
 * <p>Only values {@link ValueMemo#isShared shared} by a memo are remembered: any other value is new
 * with every request, and remembering it would only fill the table. Values are held weakly, so a
 * value the memo let go is not kept alive here. A fixed table of {@code capacity} slots; a value
 * that hashes to a taken slot replaces what was there.
 *
 * <p>Thread-safe without locks: slots are immutable and published through an atomic array.
 *
 * <pre>{@code
 * DerivedValues<Turn> turns = new DerivedValues<>(8_192);
 * Turn turn = turns.get(element);                 // null: derive it, then turns.put(element, turn)
 * }</pre>
 *
 * @param <V> what is derived
 */
public final class DerivedValues<V> {

    private final AtomicReferenceArray<Slot<V>> slots;
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

    /** Remembers {@code derived} for this very {@code value}, if a memo shares it; else does nothing. */
    public void put(Object value, V derived) {
        if (ValueMemo.isShared(value)) {
            slots.setRelease(System.identityHashCode(value) & mask, new Slot<>(value, derived));
        }
    }

    private static final class Slot<V> extends WeakReference<Object> {
        final V derived;

        Slot(Object value, V derived) {
            super(value);
            this.derived = derived;
        }
    }
}
