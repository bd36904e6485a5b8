package io.agentfuse.config.metrics;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Micrometer meters for every breaker of a {@link CircuitBreakerRegistry}, present and future, with
 * the names of docs/design.md §9 (as Prometheus shows them):
 * <ul>
 *   <li>{@code agentfuse_breaker_state{name, state}}: 1 for the breaker's current state, 0 for the others;</li>
 *   <li>{@code agentfuse_breaker_calls_total{name, outcome}}: recorded calls, by {@link Outcome};</li>
 *   <li>{@code agentfuse_breaker_not_permitted_calls_total{name}}: calls rejected without being made;</li>
 *   <li>{@code agentfuse_breaker_transitions_total{name, from, to, reason}}: state changes; {@code reason} is
 *       the trigger or event ({@code consecutive5xx}, {@code failureRate}, {@code operator},
 *       {@code resetTimeout elapsed}, ...) without its figures ({@link #reasonTag}), so the number of
 *       series stays bounded.</li>
 * </ul>
 * The one binder of these meters: the gateway binds it to its Prometheus registry, the Spring Boot
 * auto-configuration to the application's. Micrometer is an optional dependency of this module:
 * only a user of this class needs it.
 * Binding listens to the registry through {@link CircuitBreakerListener}; a breaker's gauges and
 * counters (at 0) all appear when it is bound or at its first event, so a scrape finds every name
 * before the first failure, and all go when the registry drops the breaker (an idle one, made for a
 * name a caller chose), so the series stay as bounded as the breakers. Binding twice to the same
 * meter registry changes nothing. Counting a call allocates nothing.
 * Thread-safe.
 *
 * <pre>{@code
 * new AgentfuseBreakerMetrics(runtime.registry()).bindTo(meterRegistry);
 * }</pre>
 */
public final class AgentfuseBreakerMetrics implements MeterBinder {

    /** What the names of this binder's meters start with. */
    private static final String METER_PREFIX = "agentfuse.breaker.";

    private final CircuitBreakerRegistry breakers;
    private final Set<MeterRegistry> bound = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    /** Meters for the breakers of {@code breakers}. */
    public AgentfuseBreakerMetrics(CircuitBreakerRegistry breakers) {
        this.breakers = Objects.requireNonNull(breakers, "breakers");
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        if (!bound.add(meters)) {
            return;
        }
        Recorder recorder = new Recorder(meters);
        for (CircuitBreaker breaker : breakers.all()) {
            recorder.watch(breaker.name());
        }
        breakers.addListener(recorder);
    }

    /**
     * A transition's reason without its figures, for a tag: the part before a colon
     * ({@code consecutive5xx: 3 in a row} → {@code consecutive5xx}, {@code operator: deploy} →
     * {@code operator}), cut before the first word that is a number or a duration
     * ({@code half-open probe slower than PT1M} → {@code half-open probe slower than}).
     */
    static String reasonTag(String reason) {
        if (reason == null) {
            return "unknown";
        }
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
        return tag.length() == 0 ? "unknown" : tag.toString();
    }

    /** Records one meter registry's meters from the breakers' events. */
    private final class Recorder implements CircuitBreakerListener {
        private final MeterRegistry meters;
        private final Set<String> watched = ConcurrentHashMap.newKeySet();
        private final Map<String, Counter[]> calls = new ConcurrentHashMap<>();
        private final Map<String, Counter> rejected = new ConcurrentHashMap<>();

        Recorder(MeterRegistry meters) {
            this.meters = meters;
        }

        /** Registers every meter of the breaker {@code name} at once, counters at 0, as resilience4j does. */
        void watch(String name) {
            if (!watched.add(name)) {
                return;
            }
            for (CircuitState state : CircuitState.values()) {
                Gauge.builder("agentfuse.breaker.state", breakers,
                                all -> all.find(name).filter(breaker -> breaker.state() == state).isPresent() ? 1 : 0)
                        .description("1 when the breaker is in this state, else 0")
                        .tags("name", name, "state", state.name())
                        .register(meters);
            }
            calls.computeIfAbsent(name, this::callCounters);
            rejected.computeIfAbsent(name, this::rejectedCounter);
        }

        private Counter[] callCounters(String name) {
            Counter[] byOutcome = new Counter[Outcome.values().length];
            for (Outcome outcome : Outcome.values()) {
                byOutcome[outcome.ordinal()] = Counter.builder("agentfuse.breaker.calls")
                        .description("Calls recorded by the breaker")
                        .tags("name", name, "outcome", outcome.name())
                        .register(meters);
            }
            return byOutcome;
        }

        private Counter rejectedCounter(String name) {
            return Counter.builder("agentfuse.breaker.not.permitted.calls")
                    .description("Calls the breaker rejected without making them")
                    .tags("name", name)
                    .register(meters);
        }

        @Override
        public void onCallRecorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
            Counter[] byOutcome = calls.get(breaker.name());
            if (byOutcome == null) {
                watch(breaker.name());
                byOutcome = calls.computeIfAbsent(breaker.name(), this::callCounters);
            }
            byOutcome[outcome.ordinal()].increment();
        }

        @Override
        public void onCallRejected(CircuitBreaker breaker) {
            Counter counter = rejected.get(breaker.name());
            if (counter == null) {
                watch(breaker.name());
                counter = rejected.computeIfAbsent(breaker.name(), this::rejectedCounter);
            }
            counter.increment();
        }

        @Override
        public void onRemoved(CircuitBreaker breaker) {
            String name = breaker.name();
            watched.remove(name);
            calls.remove(name);
            rejected.remove(name);
            for (Meter meter : meters.getMeters()) {
                Meter.Id id = meter.getId();
                if (id.getName().startsWith(METER_PREFIX) && name.equals(id.getTag("name"))) {
                    meters.remove(meter);
                }
            }
        }

        @Override
        public void onStateTransition(StateTransition event) {
            watch(event.breaker());
            Counter.builder("agentfuse.breaker.transitions").description("State changes of the breaker")
                    .tags("name", event.breaker(), "from", event.from().name(), "to", event.to().name(),
                            "reason", reasonTag(event.reason()))
                    .register(meters)
                    .increment();
        }
    }
}
