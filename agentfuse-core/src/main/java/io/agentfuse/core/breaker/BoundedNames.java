package io.agentfuse.core.breaker;

import io.agentfuse.core.internal.Checks;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names that input may turn into state (a breaker, a metric series, a log line): tool names a
 * caller sends, model names of a family, paths. It admits a name while it holds fewer than
 * {@code maxNames}, if the name is plain (1 to {@code maxLength} characters, none of them a
 * control or line-separator character); every other name maps to one overflow name. Give every
 * name from input to {@link #admit} or {@link #lookup} before it names a breaker or a tag, and a
 * caller who invents ten thousand names costs one breaker and one series, not ten thousand, and
 * cannot write a line of its own into a log.
 *
 * <p>Names are never evicted by this class: what was admitted stays admitted until
 * {@link #remove}. Thread-safe; a lookup takes no lock.
 *
 * <pre>{@code
 * BoundedNames tools = new BoundedNames(512, 128, "(unlisted)");
 * tools.admit("query");                                  // "query": listed by the server
 * registry.breaker("tool:db/" + tools.lookup(toolName)); // an unknown name shares "tool:db/(unlisted)"
 * }</pre>
 */
public final class BoundedNames {

    private final int maxNames;
    private final int maxLength;
    private final String overflow;
    private final Set<String> names = ConcurrentHashMap.newKeySet();

    /**
     * @param maxNames  how many names at most ({@code >= 0})
     * @param maxLength the longest name admitted ({@code >= 1})
     * @param overflow  the name every other name maps to; should be one that input cannot send
     */
    public BoundedNames(int maxNames, int maxLength, String overflow) {
        Checks.atLeast("maxNames", maxNames, 0);
        Checks.atLeast("maxLength", maxLength, 1);
        this.maxNames = maxNames;
        this.maxLength = maxLength;
        this.overflow = Objects.requireNonNull(overflow, "overflow");
    }

    /**
     * Whether {@code name} may stand in a breaker name, a tag or a log line as it is: 1 to
     * {@code maxLength} characters, no control character (a newline would start a forged log line)
     * and no Unicode line or paragraph separator.
     */
    public static boolean isPlain(String name, int maxLength) {
        if (name == null || name.isEmpty() || name.length() > maxLength) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                return false;
            }
        }
        return true;
    }

    /** {@code name} if it was admitted before or is admitted now (plain, and there is room); else the overflow name. */
    public String admit(String name) {
        if (name != null && names.contains(name)) {
            return name;
        }
        if (!isPlain(name, maxLength)) {
            return overflow;
        }
        synchronized (names) {
            if (names.contains(name)) {
                return name;
            }
            if (names.size() >= maxNames) {
                return overflow;
            }
            names.add(name);
            return name;
        }
    }

    /** {@code name} if it was admitted, else the overflow name; admits nothing. */
    public String lookup(String name) {
        return contains(name) ? name : overflow;
    }

    /** Whether {@code name} was admitted. */
    public boolean contains(String name) {
        return name != null && names.contains(name);
    }

    /** Forgets {@code name}, making room for another; returns whether it was admitted. */
    public boolean remove(String name) {
        synchronized (names) {
            return name != null && names.remove(name);
        }
    }

    /** How many names are admitted. */
    public int size() {
        return names.size();
    }

    /** Whether no more names are admitted. */
    public boolean isFull() {
        return names.size() >= maxNames;
    }

    /** The name every name not admitted maps to. */
    public String overflow() {
        return overflow;
    }
}
