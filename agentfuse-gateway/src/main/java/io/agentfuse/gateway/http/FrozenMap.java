package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The fields of a decoded object: unmodifiable, in their decoded order, and with one slot for what
 * a parser derived from the object ({@link DerivedValues}). Every object the gateway decodes from a
 * request body is one of these, whatever the body's size ({@link #object}), and every array an
 * unmodifiable list ({@link #array}): one type on every path, so a change that edits a decoded value
 * fails on the first small test, not on the first long conversation, whose values a
 * {@link ValueMemo} shares across requests. To change a value, copy it ({@code JsonObject.copy()}).
 *
 * <p>The slot sits on the map a reader loads anyway to read the object, so knowing a resent message
 * again costs no lookup in a table of its own: a conversation's hundred messages are a hundred cold
 * objects, and every further object a message's lookup touched was one more cache miss per message.
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

    /** The class of the lists {@link #array} makes. */
    private static final Class<?> FROZEN_LIST = Collections.unmodifiableList(new ArrayList<>()).getClass();

    /** A decoded object of {@code fields} (decoded values themselves), not copied: no one else may keep them. */
    static JsonObject object(Map<String, Object> fields) {
        return new JsonObject(new FrozenMap(fields));
    }

    /** A decoded array of {@code elements} (decoded values themselves), not copied: no one else may keep them. */
    static JsonArray array(List<Object> elements) {
        return new JsonArray(Collections.unmodifiableList(elements));
    }

    /** Whether {@code array} is one {@link #array} made. */
    static boolean isFrozen(JsonArray array) {
        return array.getList().getClass() == FROZEN_LIST;
    }

    /** The fields of {@code value} if it is a decoded object, else {@code null}. */
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
