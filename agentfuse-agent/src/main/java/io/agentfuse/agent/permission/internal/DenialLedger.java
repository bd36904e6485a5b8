package io.agentfuse.agent.permission.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * The denial counts of one session: a streak per scope bucket (the whole session, or one tool
 * category) and a session total. An approval ends its bucket's streak; only a reset clears the
 * total.
 *
 * <p>Not thread-safe: the owning breaker guards it. Not part of the public API.
 */
public final class DenialLedger {

    private final Map<String, Integer> streaks = new HashMap<>();
    private int total;

    /** Counts a denial in {@code bucket}; returns the bucket's streak including it. */
    public int recordDenial(String bucket) {
        total++;
        return streaks.merge(bucket, 1, Integer::sum);
    }

    /** Ends {@code bucket}'s streak. */
    public void recordApproval(String bucket) {
        streaks.remove(bucket);
    }

    /** Denials in a row in {@code bucket}. */
    public int streak(String bucket) {
        return streaks.getOrDefault(bucket, 0);
    }

    /** Denials in the session. */
    public int total() {
        return total;
    }

    /** A copy of every unfinished streak, by bucket. */
    public Map<String, Integer> streaks() {
        return Map.copyOf(streaks);
    }

    /** Forgets every count. */
    public void clear() {
        streaks.clear();
        total = 0;
    }

    /** Replaces every count. */
    public void restore(Map<String, Integer> savedStreaks, int savedTotal) {
        streaks.clear();
        savedStreaks.forEach((bucket, streak) -> {
            if (streak > 0) {
                streaks.put(bucket, streak);
            }
        });
        total = savedTotal;
    }
}
