package io.agentfuse.gateway.http;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Remembers what was derived from decoded objects on the objects themselves: those are
 * unmodifiable, and the ones a {@link ValueMemo} remembers are handed out again every time their
 * bytes come back, so what a parser made of one (a conversation turn of the neutral model) holds for
 * as long as the object lives, and lives no longer. Knowing one again costs a read of the slot its
 * {@link FrozenMap} keeps, which a reader of the object loads anyway: no table, no hash.
 *
 * <p>Only decoded objects carry a slot (a {@code JsonObject} built by hand is mutable, and is derived
 * from again every time). An object has one slot, holding the derivation of one {@code DerivedValues}
 * at a time: were the same bytes parsed by two parsers in turn (a message valid in two dialects),
 * each would derive again after the other, which costs time, never a wrong value.
 *
 * <p>Thread-safe without locks: a slot holds an immutable {@link Derivation}, written racily.
 *
 * <pre>{@code
 * DerivedValues<Turn> turns = new DerivedValues<>();
 * Turn turn = turns.derive(element, untranslatable, notes -> parseTurn(element, notes));
 * }</pre>
 *
 * @param <V> what is derived
 */
public final class DerivedValues<V> {

    /** What a {@link DerivedValues} derived from one object; immutable, so it may be published racily. */
    static final class Derivation<V> {
        final DerivedValues<V> owner;
        final V value;

        Derivation(DerivedValues<V> owner, V value) {
            this.owner = owner;
            this.value = value;
        }
    }

    /** What was derived from this very {@code value}, or {@code null}. */
    @SuppressWarnings("unchecked")
    public V get(Object value) {
        FrozenMap frozen = FrozenMap.of(value);
        Derivation<?> derivation = frozen == null ? null : frozen.derived;
        return derivation != null && derivation.owner == this ? (V) derivation.value : null;
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

    /** Remembers {@code derived} for this very {@code value}, if it was decoded; else does nothing. */
    public void put(Object value, V derived) {
        FrozenMap frozen = FrozenMap.of(value);
        if (frozen != null) {
            frozen.derived = new Derivation<>(this, derived);
        }
    }
}
