package io.agentfuse.agent.permission;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a {@link PermissionBreaker} remembers, so that a session can be saved and resumed.
 * Immutable; made only of strings, numbers, lists and maps, so that any JSON mapper serialises
 * it as it is, and {@link #toMap()} / {@link #fromMap(Map)} give a plain form for the rest.
 *
 * <pre>{@code
 * Map<String, Object> saved = breaker.snapshot().toMap();     // store as JSON
 * resumed.restore(PermissionSnapshot.fromMap(saved));
 * }</pre>
 *
 * @param state               the breaker's state
 * @param blockedCategories   categories denied without asking while OPEN, in the order they tripped
 * @param consecutiveDenials  unfinished streaks of denials, by scope bucket ({@value PermissionBreaker#GLOBAL_BUCKET}
 *                            for {@link PermissionScope#GLOBAL})
 * @param totalDenials        denials in the session
 * @param openReason          why the breaker opened; null when CLOSED
 * @param openedAtEpochMillis when it last opened, by the wall clock; null when CLOSED
 */
public record PermissionSnapshot(PermissionState state, List<String> blockedCategories,
                                 Map<String, Integer> consecutiveDenials, int totalDenials,
                                 String openReason, Long openedAtEpochMillis) {

    /** @throws IllegalArgumentException if a count is negative; NullPointerException if a collection is null */
    public PermissionSnapshot {
        Objects.requireNonNull(state, "state");
        blockedCategories = List.copyOf(blockedCategories);
        consecutiveDenials = Map.copyOf(consecutiveDenials);
        if (totalDenials < 0) {
            throw new IllegalArgumentException("totalDenials must be >= 0, but was " + totalDenials);
        }
        consecutiveDenials.forEach((bucket, streak) -> {
            if (streak < 0) {
                throw new IllegalArgumentException("consecutiveDenials." + bucket + " must be >= 0, but was " + streak);
            }
        });
    }

    /** This snapshot as a map of strings, numbers, lists and maps; absent values are left out. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("state", state.name());
        map.put("blockedCategories", blockedCategories);
        map.put("consecutiveDenials", consecutiveDenials);
        map.put("totalDenials", totalDenials);
        if (openReason != null) {
            map.put("openReason", openReason);
        }
        if (openedAtEpochMillis != null) {
            map.put("openedAtEpochMillis", openedAtEpochMillis);
        }
        return map;
    }

    /**
     * The snapshot that {@link #toMap()} gave, or the same shape read back from JSON (numbers of
     * any {@link Number} type are accepted).
     *
     * @throws IllegalArgumentException naming the first field that is missing or of the wrong kind
     */
    public static PermissionSnapshot fromMap(Map<String, ?> map) {
        Object state = map.get("state");
        if (!(state instanceof String name)
                || Arrays.stream(PermissionState.values()).noneMatch(known -> known.name().equals(name))) {
            throw new IllegalArgumentException("state must be one of " + Arrays.toString(PermissionState.values())
                    + ", but was " + state);
        }
        List<String> blocked = new ArrayList<>();
        for (Object category : (List<?>) field(map, "blockedCategories", List.class)) {
            blocked.add(asString("blockedCategories[]", category));
        }
        Map<String, Integer> streaks = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) field(map, "consecutiveDenials", Map.class)).entrySet()) {
            String bucket = asString("consecutiveDenials key", entry.getKey());
            streaks.put(bucket, asNumber("consecutiveDenials." + bucket, entry.getValue()).intValue());
        }
        int total = field(map, "totalDenials", Number.class).intValue();
        Object reason = map.get("openReason");
        Object openedAt = map.get("openedAtEpochMillis");
        return new PermissionSnapshot(PermissionState.valueOf((String) state), blocked, streaks, total,
                reason == null ? null : asString("openReason", reason),
                openedAt == null ? null : asNumber("openedAtEpochMillis", openedAt).longValue());
    }

    private static <T> T field(Map<String, ?> map, String key, Class<T> type) {
        Object value = map.get(key);
        if (!type.isInstance(value)) {
            String kind = type.getSimpleName().toLowerCase(Locale.ROOT);
            throw new IllegalArgumentException(key + " must be a " + kind + ", but was " + value);
        }
        return type.cast(value);
    }

    private static String asString(String key, Object value) {
        if (!(value instanceof String text)) {
            throw new IllegalArgumentException(key + " must be a string, but was " + value);
        }
        return text;
    }

    private static Number asNumber(String key, Object value) {
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException(key + " must be a number, but was " + value);
        }
        return number;
    }
}
