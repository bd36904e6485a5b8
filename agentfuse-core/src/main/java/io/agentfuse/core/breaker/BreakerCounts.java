package io.agentfuse.core.breaker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A breaker's counters at one moment, typed per trigger: the streak of each "in a row" trigger,
 * the calls and hits in each rate trigger's window, and a half-open breaker's probes. While a
 * breaker is OPEN they are the counters that tripped it, so the evidence stays visible.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * long errorsInARow = breaker.snapshot().triggerCounts().streak("consecutiveErrors").orElse(0L);
 * }</pre>
 *
 * @param streaks the "in a row" triggers, in the order they were configured
 * @param windows the rate triggers ({@code failureRate}, {@code slowCallRate})
 * @param probes  the probes of a HALF_OPEN breaker; {@code null} in any other state
 */
public record BreakerCounts(List<Streak> streaks, List<Window> windows, Probes probes) {

    /** No counters: a state that keeps none (operator states). */
    public static final BreakerCounts NONE = new BreakerCounts(List.of(), List.of(), null);

    /** The calls in a row that an "in a row" trigger has seen, e.g. {@code consecutive5xx}. */
    public record Streak(String trigger, long inARow) {
    }

    /** A rate trigger's window: the calls in it, and the hits (failures or slow calls) among them. */
    public record Window(String trigger, long calls, long hits) {
    }

    /** A half-open breaker's probes: permits not handed out yet, and probes that succeeded. */
    public record Probes(long permitsLeft, long successes) {
    }

    /** Copies the lists. */
    public BreakerCounts {
        streaks = List.copyOf(streaks);
        windows = List.copyOf(windows);
    }

    /** The streak of {@code trigger}, if the breaker has that trigger. */
    public Optional<Long> streak(String trigger) {
        return streaks.stream().filter(streak -> streak.trigger().equals(trigger)).map(Streak::inARow).findFirst();
    }

    /** The window of {@code trigger}, if the breaker has that trigger. */
    public Optional<Window> window(String trigger) {
        return windows.stream().filter(window -> window.trigger().equals(trigger)).findFirst();
    }

    /**
     * The flat form operators read (the admin API's {@code counts}, transition events):
     * {@code consecutive5xx → 2}, {@code failureRate.calls → 12}, {@code failureRate.hits → 7},
     * {@code probePermitsLeft → 0}, {@code probeSuccesses → 1}.
     */
    public Map<String, Long> asMap() {
        Map<String, Long> flat = new LinkedHashMap<>();
        streaks.forEach(streak -> flat.put(streak.trigger(), streak.inARow()));
        windows.forEach(window -> {
            flat.put(window.trigger() + ".calls", window.calls());
            flat.put(window.trigger() + ".hits", window.hits());
        });
        if (probes != null) {
            flat.put("probePermitsLeft", probes.permitsLeft());
            flat.put("probeSuccesses", probes.successes());
        }
        return flat;
    }

    /** The typed counts of their flat form ({@link #asMap()}), e.g. as another instance shared them. */
    static BreakerCounts fromMap(Map<String, Long> flat) {
        Builder counts = new Builder();
        Map<String, long[]> windows = new LinkedHashMap<>();
        Long permitsLeft = flat.get("probePermitsLeft");
        Long successes = flat.get("probeSuccesses");
        flat.forEach((key, value) -> {
            if (key.endsWith(".calls")) {
                windows.computeIfAbsent(key.substring(0, key.length() - 6), trigger -> new long[2])[0] = value;
            } else if (key.endsWith(".hits")) {
                windows.computeIfAbsent(key.substring(0, key.length() - 5), trigger -> new long[2])[1] = value;
            } else if (!key.equals("probePermitsLeft") && !key.equals("probeSuccesses")) {
                counts.streak(key, value);
            }
        });
        windows.forEach((trigger, window) -> counts.window(trigger, window[0], window[1]));
        if (permitsLeft != null && successes != null) {
            counts.probes(permitsLeft, successes);
        }
        return counts.build();
    }

    /** Collects one state's counters; the breaker's states and trigger counters fill it. Not thread-safe. */
    public static final class Builder {
        private final List<Streak> streaks = new ArrayList<>();
        private final List<Window> windows = new ArrayList<>();
        private Probes probes;

        Builder() {
        }

        /** Adds the streak of {@code trigger}. */
        public Builder streak(String trigger, long inARow) {
            streaks.add(new Streak(Objects.requireNonNull(trigger, "trigger"), inARow));
            return this;
        }

        /** Adds the window of {@code trigger}. */
        public Builder window(String trigger, long calls, long hits) {
            windows.add(new Window(Objects.requireNonNull(trigger, "trigger"), calls, hits));
            return this;
        }

        Builder probes(long permitsLeft, long successes) {
            probes = new Probes(permitsLeft, successes);
            return this;
        }

        BreakerCounts build() {
            return streaks.isEmpty() && windows.isEmpty() && probes == null ? NONE : new BreakerCounts(streaks, windows, probes);
        }
    }
}
