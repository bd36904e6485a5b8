package io.agentfuse.gateway.metrics;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every breaker's meters, named as resilience4j names its own (DESIGN §9):
 * <ul>
 *   <li>{@code agentfuse_breaker_state{name, state}} — 1 for the current state, 0 for the others;</li>
 *   <li>{@code agentfuse_breaker_calls_total{name, outcome}} — calls it recorded, by {@link Outcome};</li>
 *   <li>{@code agentfuse_breaker_not_permitted_calls_total{name}} — calls it rejected;</li>
 *   <li>{@code agentfuse_breaker_transitions_total{name, from, to, reason}} — state changes; the
 *       reason is the trigger or event without its figures ({@link #reasonTag}), so it stays a
 *       small set of values.</li>
 * </ul>
 * Counting a call allocates nothing: its counter is found by breaker name and outcome ordinal.
 * Breakers are seen as the registry makes them (tool breakers appear on first use). Thread-safe.
 */
final class BreakerMeters implements CircuitBreakerListener {

    private static final Outcome[] OUTCOMES = Outcome.values();

    private final MeterRegistry meters;
    private final CircuitBreakerRegistry breakers;
    private final Map<String, Counter[]> calls = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Boolean> watched = new ConcurrentHashMap<>();

    BreakerMeters(MeterRegistry meters, CircuitBreakerRegistry breakers) {
        this.meters = meters;
        this.breakers = breakers;
        breakers.addListener(this);
        watchNewBreakers();
    }

    /** Adds state gauges for breakers made since the last look. */
    void watchNewBreakers() {
        for (CircuitBreaker breaker : breakers.all()) {
            String name = breaker.name();
            if (watched.putIfAbsent(name, Boolean.TRUE) == null) {
                for (CircuitState state : CircuitState.values()) {
                    Gauge.builder("agentfuse.breaker.state", breakers, all -> all.find(name)
                                    .filter(current -> current.state() == state).isPresent() ? 1 : 0)
                            .description("1 when the breaker is in this state, else 0")
                            .tags("name", name, "state", state.name())
                            .strongReference(true)
                            .register(meters);
                }
            }
        }
    }

    @Override
    public void onCallRecorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
        Counter[] byOutcome = calls.get(breaker.name());
        if (byOutcome == null) {
            byOutcome = calls.computeIfAbsent(breaker.name(), name -> {
                Counter[] counters = new Counter[OUTCOMES.length];
                for (Outcome each : OUTCOMES) {
                    counters[each.ordinal()] = Counter.builder("agentfuse.breaker.calls")
                            .description("Calls recorded by the breaker, by outcome")
                            .tags("name", name, "outcome", each.name()).register(meters);
                }
                return counters;
            });
        }
        byOutcome[outcome.ordinal()].increment();
    }

    @Override
    public void onCallRejected(CircuitBreaker breaker) {
        rejected.computeIfAbsent(breaker.name(), name -> Counter.builder("agentfuse.breaker.not.permitted.calls")
                .description("Calls the breaker rejected").tags("name", name).register(meters)).increment();
    }

    @Override
    public void onStateTransition(StateTransition event) {
        Counter.builder("agentfuse.breaker.transitions").description("State changes of the breaker")
                .tags("name", event.breaker(), "from", event.from().name(), "to", event.to().name(),
                        "reason", reasonTag(event.reason()))
                .register(meters).increment();
    }

    /**
     * A transition's reason without its figures, for a tag: the part before a colon
     * ({@code consecutive5xx: 3 in a row} → {@code consecutive5xx}, {@code operator: deploy} →
     * {@code operator}), cut before the first word that is a number or a duration
     * ({@code half-open probe slower than PT1M} → {@code half-open probe slower than}).
     */
    static String reasonTag(String reason) {
        int colon = reason.indexOf(':');
        String head = colon > 0 ? reason.substring(0, colon) : reason;
        StringBuilder tag = new StringBuilder();
        for (String word : head.trim().split("\\s+")) {
            if (word.isEmpty() || Character.isDigit(word.charAt(0)) || word.startsWith("PT")) {
                break;
            }
            if (tag.length() > 0) {
                tag.append(' ');
            }
            tag.append(word);
        }
        return tag.length() == 0 ? "unspecified" : tag.toString();
    }
}
