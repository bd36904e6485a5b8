package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The fields of a decoded object: unmodifiable, in their decoded order, and with one slot for what
 * a parser derived from the object ({@link DerivedValues}). Every object the gateway decodes from a
 * request body is one of these, whatever the body's size ({@link #object}, {@link Builder}), and
 * every array an unmodifiable list ({@link #array}): one type on every path, so a change that edits
 * a decoded value fails on the first small test, not on the first long conversation, whose values a
 * {@link ValueMemo} shares across requests. To change a value, copy it ({@code JsonObject.copy()}).
 *
 * <p>Compact: an object of up to {@value #MAX_SCANNED} fields (a message, a content part, a tool
 * call: nearly all of them) keeps its names and values side by side in one array, found by a scan —
 * a name the parser canonicalised is usually the very {@code String} a reader asks with — instead of
 * a hash table with an entry per field; a larger one keeps a {@link LinkedHashMap}. A conversation
 * of a quarter of a million messages is held live while it is read, and every byte of it is a
 * byte a stop-the-world collection copies (a hash-table map and an unmodifiable view over it made
 * the gateway's collections long enough to stall both event loops for seconds in
 * {@code OversizedRequestsTest}).
 *
 * <p>The slot sits on the map a reader loads anyway to read the object, so knowing a resent message
 * again costs no lookup in a table of its own: a conversation's hundred messages are a hundred cold
 * objects, and every further object a message's lookup touched was one more cache miss per message.
 *
 * <p>Every view is unmodifiable; equality and hash are a map's. The slot is written racily: it holds
 * an immutable {@link DerivedValues.Derivation}, so a reader sees either a whole one or an older one
 * (or none), and then derives again.
 */
final class FrozenMap extends AbstractMap<String, Object> {

    /** Objects with more fields than this keep a hash table: scanning them, or finding a repeated name, would cost more. */
    static final int MAX_SCANNED = 16;

    /** The class of the lists {@link #array} makes. */
    private static final Class<?> FROZEN_LIST = Collections.unmodifiableList(new ArrayList<>()).getClass();
    private static final Object[] NO_FIELDS = new Object[0];

    /** Names at even places, each followed by its value; {@code null} for a large object. */
    private final Object[] pairs;
    /** The fields of a large object; {@code null} for a small one. */
    private final Map<String, Object> large;
    /** What a parser derived from the object these are the fields of; see {@link DerivedValues}. */
    DerivedValues.Derivation<?> derived;

    private FrozenMap(Object[] pairs, Map<String, Object> large) {
        this.pairs = pairs;
        this.large = large;
    }

    /** A decoded object of {@code fields} (decoded values themselves), copied into the compact form. */
    static JsonObject object(Map<String, Object> fields) {
        Builder builder = new Builder();
        fields.forEach(builder::put);
        return builder.build();
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

    @Override
    public Object get(Object key) {
        if (large != null) {
            return large.get(key);
        }
        int at = indexOf(key);
        return at < 0 ? null : pairs[at + 1];
    }

    @Override
    public boolean containsKey(Object key) {
        return large != null ? large.containsKey(key) : indexOf(key) >= 0;
    }

    @Override
    public int size() {
        return large != null ? large.size() : pairs.length / 2;
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Object> action) {
        if (large != null) {
            large.forEach(action);
            return;
        }
        for (int i = 0; i < pairs.length; i += 2) {
            action.accept((String) pairs[i], pairs[i + 1]);
        }
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        if (large != null) {
            return Collections.unmodifiableMap(large).entrySet();
        }
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int at;

                    @Override
                    public boolean hasNext() {
                        return at < pairs.length;
                    }

                    @Override
                    public Entry<String, Object> next() {
                        if (at >= pairs.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, Object> entry = new SimpleImmutableEntry<>((String) pairs[at], pairs[at + 1]);
                        at += 2;
                        return entry;
                    }
                };
            }

            @Override
            public int size() {
                return pairs.length / 2;
            }
        };
    }

    // The identity test first: a name the parser canonicalised is usually the very String asked with.
    private int indexOf(Object key) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i] == key) {
                return i;
            }
        }
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Collects the fields of one decoded object, in their order; the last value of a name given
     * twice wins, as in Jackson's reading. Not thread-safe: one per object.
     */
    static final class Builder {
        private Object[] pairs = NO_FIELDS;
        private int length;
        private LinkedHashMap<String, Object> large;

        /** Adds a field; false when its name was given before (then its value is replaced). */
        boolean put(String name, Object value) {
            if (large != null) {
                boolean known = large.containsKey(name);
                large.put(name, value);
                return !known;
            }
            for (int i = 0; i < length; i += 2) {
                if (pairs[i] == name || pairs[i].equals(name)) {
                    pairs[i + 1] = value;
                    return false;
                }
            }
            if (length == 2 * MAX_SCANNED) {
                large = new LinkedHashMap<>(4 * MAX_SCANNED);
                for (int i = 0; i < length; i += 2) {
                    large.put((String) pairs[i], pairs[i + 1]);
                }
                large.put(name, value);
                return true;
            }
            if (length == pairs.length) {
                pairs = Arrays.copyOf(pairs, Math.max(4, 2 * pairs.length));
            }
            pairs[length++] = name;
            pairs[length++] = value;
            return true;
        }

        /** The object of the fields put, as a {@code JsonObject}; the builder is not used after. */
        JsonObject build() {
            FrozenMap fields = large != null ? new FrozenMap(null, large)
                    : new FrozenMap(length == pairs.length ? pairs : Arrays.copyOf(pairs, length), null);
            return new JsonObject(fields);
        }
    }
}
