package io.agentfuse.config;

import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.Sleeper;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.core.event.RetryListener;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Collects the collaborators of an {@link AgentfuseRuntime}: the clock, scheduler and sleeper
 * every breaker, budget and guard uses, how a model call's tokens are counted, and who hears of
 * retries. Defaults: the system clock, the shared scheduler, {@link Sleeper#system()}, no token
 * counting, no retry listener. Not
 * thread-safe; the runtime it builds is.
 *
 * <pre>{@code
 * AgentfuseRuntime runtime = AgentfuseRuntime.builder(config).manualClock(new ManualClock()).build();
 * }</pre>
 */
public final class AgentfuseRuntimeBuilder {

    final AgentfuseConfig config;
    Clock clock = Clock.system();
    Scheduler scheduler = Scheduler.shared();
    Sleeper sleeper = Sleeper.system();
    ToLongFunction<Object> tokens;
    RetryListener retryListener;
    BreakerStateStore stateStore;

    AgentfuseRuntimeBuilder(AgentfuseConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** The clock of every breaker, budget and guard; default {@link Clock#system()}. */
    public AgentfuseRuntimeBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /** The scheduler for timeouts and asynchronous retries; default {@link Scheduler#shared()}. */
    public AgentfuseRuntimeBuilder scheduler(Scheduler scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        return this;
    }

    /** How synchronous retries wait; default {@link Sleeper#system()}. */
    public AgentfuseRuntimeBuilder sleeper(Sleeper sleeper) {
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        return this;
    }

    /** A {@link ManualClock} as clock, scheduler and sleeper: how tests drive time. */
    public AgentfuseRuntimeBuilder manualClock(ManualClock clock) {
        this.clock = clock;
        this.scheduler = clock;
        this.sleeper = clock::sleep;
        return this;
    }

    /** How many tokens a model call's result used, for the {@code tokenOveruse} trigger. */
    public AgentfuseRuntimeBuilder tokens(ToLongFunction<Object> tokens) {
        this.tokens = tokens;
        return this;
    }

    /** Told of every retry decision of every guard the runtime builds (for metrics); default none. */
    public AgentfuseRuntimeBuilder retryListener(RetryListener listener) {
        this.retryListener = listener;
        return this;
    }

    /**
     * Where the breakers are shared with the rest of a fleet (docs/design.md §8), e.g. a
     * {@code RedisStateStore} made from {@code state.redis} when {@code state.store} is
     * {@code redis}; default none: state is this runtime's alone. The caller makes and closes the
     * store, so that configuration does not depend on Redis.
     */
    public AgentfuseRuntimeBuilder stateStore(BreakerStateStore stateStore) {
        this.stateStore = Objects.requireNonNull(stateStore, "stateStore");
        return this;
    }

    /** The runtime, with every model breaker created. */
    public AgentfuseRuntime build() {
        return new AgentfuseRuntime(this);
    }
}
