package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Named breakers, created on first use from templates: one per model ({@code model:*}), per tool
 * ({@code tool:search/*}), per anything.
 *
 * <p>A template pattern is an exact name or a prefix ending in {@code *}; the most specific
 * (longest) matching pattern wins, else the default config. Breakers that stayed CLOSED and were
 * not looked up for {@code idleTimeout} are dropped by {@link #evictIdle()}, so per-tool breakers
 * for tools that come and go do not pile up. Registry listeners are attached to every breaker,
 * present and future, and told when one is dropped ({@link CircuitBreakerListener#onRemoved}).
 *
 * <p><b>Limits.</b> Where names come from callers (a model or tool name in a request), a
 * {@linkplain Builder#limit limit} bounds how many breakers of a pattern {@link #breaker} makes on
 * demand: at the limit, the idle ones of that pattern are dropped to make room, and if none is
 * idle the new name gets no breaker ({@link BreakerLimitException}, or an empty
 * {@link #tryBreaker}) while the existing ones are untouched. Breakers installed by
 * {@link #replace} (those a configuration declares) are outside every limit.
 *
 * <p>With a {@link BreakerStateStore} ({@link Builder#stateStore}) the registry shares its
 * breakers' trips, operator actions and closes with the other instances of a fleet and applies
 * theirs; breakers stay local, so calls never wait for the store, and if the store is away each
 * instance goes on with its own state. Without one, nothing is shared.
 *
 * <p>Thread-safe; lookups of existing breakers take no lock.
 *
 * <pre>{@code
 * CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder()
 *     .template("tool:*", CircuitBreakerConfig.builder().trigger(Trigger.consecutiveErrors(3)).build())
 *     .idleTimeout(Duration.ofHours(1))
 *     .build();
 * CircuitBreaker breaker = registry.breaker("tool:search/web_search");
 * }</pre>
 */
public final class CircuitBreakerRegistry {

    private final Clock clock;
    private final CircuitBreakerConfig defaultConfig;
    private final Map<NamePattern, CircuitBreakerConfig> templates;
    private final BreakerTable breakers;
    private final List<CircuitBreakerListener> listeners = new CopyOnWriteArrayList<>();
    private final BreakerStateStore stateStore;
    private final FleetSync fleet;

    private CircuitBreakerRegistry(Builder builder) {
        this.clock = builder.clock;
        this.defaultConfig = builder.defaultConfig;
        this.templates = new LinkedHashMap<>(builder.templates);
        this.breakers = new BreakerTable(clock, builder.idleTimeout.toNanos(), builder.limits, this::dropped);
        this.stateStore = builder.stateStore;
        this.fleet = stateStore == null ? null : new FleetSync(this, stateStore);
    }

    /** A builder with the default config, no templates, the system clock and a 1-hour idle timeout. */
    public static Builder builder() {
        return new Builder();
    }

    /** The breaker named {@code name}, created from the best matching template if it is new. */
    public CircuitBreaker breaker(String name) {
        return breaker(name, configFor(name));
    }

    /**
     * The breaker named {@code name}, created with {@code config} if it is new.
     *
     * @throws BreakerLimitException if it is new, falls under a full {@linkplain Builder#limit limit}
     *                               and no breaker of that limit is idle
     */
    public CircuitBreaker breaker(String name, CircuitBreakerConfig config) {
        CircuitBreaker breaker = breakers.touch(name);
        if (breaker == null) {
            breaker = breakers.use(name, key -> create(key, config));
        }
        if (breaker == null) {
            throw breakers.refusal(name);
        }
        return breaker;
    }

    /**
     * Like {@link #breaker(String, CircuitBreakerConfig)}, but empty instead of throwing when the
     * name's limit is full: the form for names a caller chose, which a flood of may reach the limit.
     */
    public Optional<CircuitBreaker> tryBreaker(String name, CircuitBreakerConfig config) {
        CircuitBreaker breaker = breakers.touch(name);
        return Optional.ofNullable(breaker != null ? breaker : breakers.use(name, key -> create(key, config)));
    }

    /**
     * Installs a breaker named {@code name} with {@code config}, replacing any existing one
     * unless its config is equal (then the existing breaker and its state are kept).
     */
    public CircuitBreaker replace(String name, CircuitBreakerConfig config) {
        return breakers.install(name, existing -> existing.config().equals(config), key -> create(key, config));
    }

    private CircuitBreaker create(String name, CircuitBreakerConfig config) {
        CircuitBreaker breaker = CircuitBreaker.of(name, config, clock);
        listeners.forEach(breaker::addListener);
        if (fleet != null) {
            fleet.attach(breaker);
        }
        return breaker;
    }

    /** The config a new breaker named {@code name} would get. */
    public CircuitBreakerConfig configFor(String name) {
        CircuitBreakerConfig best = defaultConfig;
        int bestLength = -1;
        for (Map.Entry<NamePattern, CircuitBreakerConfig> template : templates.entrySet()) {
            NamePattern pattern = template.getKey();
            if (pattern.matches(name) && pattern.specificity() > bestLength) {
                best = template.getValue();
                bestLength = pattern.specificity();
            }
        }
        return best;
    }

    /** The breaker named {@code name}, if it exists; does not count as a use. */
    public Optional<CircuitBreaker> find(String name) {
        return Optional.ofNullable(breakers.find(name));
    }

    /** Every breaker, sorted by name. */
    public List<CircuitBreaker> all() {
        List<CircuitBreaker> all = breakers.all();
        all.sort(Comparator.comparing(CircuitBreaker::name));
        return all;
    }

    /** Removes the breaker named {@code name}; returns whether there was one. */
    public boolean remove(String name) {
        return breakers.remove(name);
    }

    /**
     * Drops the breakers that are CLOSED and were not looked up for the idle timeout.
     *
     * @return how many were dropped
     */
    public int evictIdle() {
        return breakers.evictIdle(null);
    }

    /** After {@code breaker} left the registry: the fleet and the registry's listeners let go of it. */
    private void dropped(CircuitBreaker breaker) {
        if (fleet != null) {
            fleet.forget(breaker.name());
        }
        for (CircuitBreakerListener listener : listeners) {
            breaker.removeListener(listener);
            try {
                listener.onRemoved(breaker);
            } catch (RuntimeException ignored) {
                // a listener must not stop the removal, as with every other event
            }
        }
    }

    /** Attaches {@code listener} to every breaker, existing and future. */
    public void addListener(CircuitBreakerListener listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        breakers.all().forEach(breaker -> breaker.addListener(listener));
    }

    /** The registry's clock. */
    public Clock clock() {
        return clock;
    }

    /** The store this registry shares its breakers through, if it was built with one. */
    public Optional<BreakerStateStore> stateStore() {
        return Optional.ofNullable(stateStore);
    }

    /** Collects the registry's settings; not thread-safe. */
    public static final class Builder {
        private Clock clock = Clock.system();
        private CircuitBreakerConfig defaultConfig = CircuitBreakerConfig.defaults();
        private final Map<NamePattern, CircuitBreakerConfig> templates = new LinkedHashMap<>();
        private final Map<NamePattern, Integer> limits = new LinkedHashMap<>();
        private Duration idleTimeout = Duration.ofHours(1);
        private BreakerStateStore stateStore;

        private Builder() {
        }

        /** The clock for every breaker; default {@link Clock#system()}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The config for names that match no template; default {@link CircuitBreakerConfig#defaults()}. */
        public Builder defaultConfig(CircuitBreakerConfig config) {
            this.defaultConfig = Objects.requireNonNull(config, "defaultConfig");
            return this;
        }

        /** The config for names matching {@code pattern} (exact, or a prefix ending in {@code *}). */
        public Builder template(String pattern, CircuitBreakerConfig config) {
            templates.put(new NamePattern(pattern), Objects.requireNonNull(config, "config"));
            return this;
        }

        /**
         * At most {@code maxBreakers} breakers whose names match {@code pattern} (exact, or a prefix
         * ending in {@code *}) are made on demand and kept at once; default: no limit. At the limit
         * the idle ones of the pattern are dropped ({@link #idleTimeout}) to make room, and when none
         * is, a new name gets no breaker. A name under two limits counts against the first one given.
         */
        public Builder limit(String pattern, int maxBreakers) {
            Checks.atLeast("maxBreakers", maxBreakers, 1);
            limits.put(new NamePattern(pattern), maxBreakers);
            return this;
        }

        /** How long a CLOSED breaker may go unused before {@link #evictIdle()} drops it; default 1 hour. */
        public Builder idleTimeout(Duration idleTimeout) {
            Checks.positive("idleTimeout", idleTimeout);
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * Shares the breakers' trips, operator actions and closes with every registry on the same
         * {@code store} (a fleet); default none, so state is this registry's alone. The registry
         * starts the store; whoever made the store closes it.
         */
        public Builder stateStore(BreakerStateStore store) {
            this.stateStore = Objects.requireNonNull(store, "stateStore");
            return this;
        }

        /** The registry. */
        public CircuitBreakerRegistry build() {
            CircuitBreakerRegistry registry = new CircuitBreakerRegistry(this);
            if (registry.fleet != null) {
                stateStore.start(registry.fleet);
            }
            return registry;
        }
    }
}
