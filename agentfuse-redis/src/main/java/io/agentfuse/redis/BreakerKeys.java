package io.agentfuse.redis;

/**
 * The names of what the breaker store keeps in Redis, all under one prefix (the README's table of
 * them is this class): one home for them, so a script's keys and the docs cannot drift apart.
 *
 * @param prefix the prefix of every key and of the channel ({@code state.redis.keyPrefix})
 */
record BreakerKeys(String prefix) {

    /** The channel every change is published on. */
    String channel() {
        return prefix + "breakers";
    }

    /** The string holding a breaker's latest change; how long it stays is {@link RecordRetention}'s. */
    String record(String breaker) {
        return prefix + "breaker:" + breaker;
    }

    /** The string holding the id of the instance that probes a breaker, expiring after its {@code probeTimeout}. */
    String lease(String breaker) {
        return prefix + "probe:" + breaker;
    }

    /** The hash of a rate trigger's windows, one field per instance, expiring when no instance shares one. */
    String window(String breaker, String trigger) {
        return prefix + "window:" + breaker + ":" + trigger;
    }
}
