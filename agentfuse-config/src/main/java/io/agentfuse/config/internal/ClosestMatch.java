package io.agentfuse.config.internal;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?": the candidate nearest to a misspelt word by edit distance, if it is near enough. */
final class ClosestMatch {

    private ClosestMatch() {
    }

    /**
     * The candidate closest to {@code word}, ignoring case: within a third of its length (at
     * least 2 edits), or one that starts with it ({@code slower} → {@code slowerThan}).
     */
    static Optional<String> among(String word, Collection<String> candidates) {
        int allowed = Math.max(2, word.length() / 3);
        return candidates.stream()
                .filter(candidate -> distance(word, candidate) <= allowed || isPrefix(word, candidate))
                .min(Comparator.comparingInt(candidate -> distance(word, candidate)));
    }

    private static boolean isPrefix(String word, String candidate) {
        return word.length() >= 3 && candidate.toLowerCase(Locale.ROOT).startsWith(word.toLowerCase(Locale.ROOT));
    }

    /** {@code "; did you mean \"x\"?"}, or empty text when nothing is near. */
    static String suggestion(String word, Collection<String> candidates) {
        return among(word, candidates).map(match -> "; did you mean \"" + match + "\"?").orElse("");
    }

    /**
     * The message for a reference to a name that is not configured:
     * {@code unknown model "claude-haiku"; did you mean "claude-haiku-4"?}, or the configured
     * names when none is near.
     */
    static String unknown(String kind, String name, Collection<String> names) {
        String message = "unknown " + kind + " \"" + name + "\"";
        if (names.isEmpty()) {
            return message + "; no " + kind + "s are configured";
        }
        String suggestion = suggestion(name, names);
        return message + (suggestion.isEmpty() ? "; configured: " + String.join(", ", names) : suggestion);
    }

    /** Levenshtein distance, case-insensitive. */
    static int distance(String first, String second) {
        String a = first.toLowerCase(Locale.ROOT);
        String b = second.toLowerCase(Locale.ROOT);
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
