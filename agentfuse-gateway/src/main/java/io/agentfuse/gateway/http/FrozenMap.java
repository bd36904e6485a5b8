package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonObject;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The fields of an object a {@link ValueMemo} shares: unmodifiable, in their decoded order, and
 * with one slot for what a parser derived from the object ({@link DerivedValues}). The slot sits
 * on the map a reader loads anyway to read the object, so knowing a resent message again costs no
 * lookup in a table of its own: a conversation's hundred messages are a hundred cold objects, and
 * every further object a message's lookup touched was one more cache miss per message.
 *
 * <p>Every view is unmodifiable, as {@link Collections#unmodifiableMap}'s; equality and hash are a
 * map's. The slot is written racily: it holds an immutable {@link DerivedValues.Derivation}, so a
 * reader sees either a whole one or an older one (or none), and then derives again.
 */
final class FrozenMap extends AbstractMap<String, Object> {

    private final Map<String, Object> fields;
    private final Map<String, Object> view;
    /** What a parser derived from the object these are the fields of; see {@link DerivedValues}. */
    DerivedValues.Derivation<?> derived;

    /** The fields of {@code value} if it is an object a memo shares, else {@code null}. */
    static FrozenMap of(Object value) {
        return value instanceof JsonObject object && object.getMap() instanceof FrozenMap frozen ? frozen : null;
    }

    /** @param fields the decoded fields, already frozen; not copied, so no one else may keep them */
    FrozenMap(Map<String, Object> fields) {
        this.fields = fields;
        this.view = Collections.unmodifiableMap(fields);
    }

    @Override
    public Object get(Object key) {
        return fields.get(key);
    }

    @Override
    public Object getOrDefault(Object key, Object defaultValue) {
        return fields.getOrDefault(key, defaultValue);
    }

    @Override
    public boolean containsKey(Object key) {
        return fields.containsKey(key);
    }

    @Override
    public int size() {
        return fields.size();
    }

    @Override
    public boolean isEmpty() {
        return fields.isEmpty();
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return view.entrySet();
    }

    @Override
    public Set<String> keySet() {
        return view.keySet();
    }

    @Override
    public Collection<Object> values() {
        return view.values();
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Object> action) {
        fields.forEach(action);
    }
}
