package io.agentfuse.langchain4j;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;

import java.util.function.Supplier;

/**
 * A decorator built from a runtime's configuration, built again when the runtime's configuration
 * is replaced ({@link AgentfuseRuntime#reload}), so a decorator always calls through the guards
 * and breakers the runtime has in force: a breaker whose settings changed is a new object in the
 * registry, and the old one would no longer see operators' actions. One volatile read and one
 * comparison per call while nothing changes. Thread-safe: two threads that see a reload at once
 * may both rebuild, and either result is right.
 */
final class Following<T> {

    private record Built<T>(AgentfuseConfig config, T value) {
    }

    private final AgentfuseRuntime runtime;
    private final Supplier<T> build;
    private volatile Built<T> built;

    /** Builds the first value at once, so a configuration mistake fails here, not at the first call. */
    Following(AgentfuseRuntime runtime, Supplier<T> build) {
        this.runtime = runtime;
        this.build = build;
        AgentfuseConfig config = runtime.config();
        this.built = new Built<>(config, build.get());
    }

    /** The value for the configuration in force. */
    T current() {
        Built<T> last = built;
        AgentfuseConfig config = runtime.config();
        if (last.config() == config) {
            return last.value();
        }
        Built<T> rebuilt = new Built<>(config, build.get());
        built = rebuilt;
        return rebuilt.value();
    }
}
