package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.core.breaker.shared.FleetWindow;
import io.agentfuse.core.breaker.shared.ProbeLease;
import io.agentfuse.core.breaker.shared.SharedBreakerState;
import io.agentfuse.core.internal.Checks;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A fleet's shared breaker state on Redis (docs/design.md §8), under the names of {@link BreakerKeys}:
 * each breaker's latest change (kept as long as {@link RecordRetention} says), every change published
 * on one channel, the fleet's one half-open probe as a lease (expiring after the breaker's
 * {@code probeTimeout}), the rate triggers' windows of every instance (shared every second, summed
 * in Redis), and a version per breaker that Redis gives each change in one script (at least the last
 * version + 1, and at least Redis's clock in microseconds, so versions keep growing when Redis
 * restarts empty or a record expired).
 * What Redis holds is input: a record, message or lease the store could not have written is no
 * record ({@link SharedStateCodec}, {@link RedisScripts}), and no reply element over 1 MiB reaches
 * the Redis client ({@link ReplySizeLimit}). An instance asking for a lease another holds gets that
 * holder's probe result instead if it comes within {@code probeResultWait} ({@link ProbeResultWaits}).
 *
 * <p>Never blocks: every call is asynchronous, with a command timeout (the URI's {@code timeout},
 * else 1 s: {@link CommandTimeout}), and fails at once while Redis is unreachable; the store's own
 * calls go through a {@link CircuitBreaker} ({@link #breaker()}: 3 failures in a row open it for
 * 2 s), so a slow or dead Redis costs the fleet nothing but sharing. Lettuce reconnects on its own; each (re)connection, and a periodic
 * timer (default every 30 s), asks the registry to resync. The listener runs on the store's one
 * thread, {@code agentfuse-redis}. Thread-safe.
 *
 * <pre>{@code
 * RedisStateStore store = RedisStateStore.create("redis://127.0.0.1:6379", "agentfuse:");
 * CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().stateStore(store).build();
 * // ... at shutdown
 * store.close();
 * }</pre>
 */
public final class RedisStateStore implements BreakerStateStore {

    /** The key prefix when none is given, as in the config key {@code state.redis.keyPrefix}. */
    public static final String DEFAULT_KEY_PREFIX = "agentfuse:";

    private static final Logger LOG = LoggerFactory.getLogger(RedisStateStore.class);

    private final BreakerKeys keys;
    private final Duration resyncInterval;
    private final Duration windowInterval;
    private final ScheduledExecutorService thread;
    private final RedisLink link;
    private final GuardedRedis guarded;
    private final ProbeResultWaits probeResults;
    private final RecordRetention retention;
    private volatile Listener listener;
    private volatile boolean closed;

    private RedisStateStore(Builder builder) {
        RedisURI uri = RedisURI.create(builder.uri);
        uri.setTimeout(builder.commandTimeout);
        this.keys = new BreakerKeys(builder.keyPrefix);
        this.resyncInterval = builder.resyncInterval;
        this.windowInterval = builder.windowInterval;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread daemon = new Thread(runnable, "agentfuse-redis");
            daemon.setDaemon(true);
            return daemon;
        });
        this.link = new RedisLink(uri, builder.commandTimeout, keys.channel(), thread);
        this.guarded = new GuardedRedis(link, thread);
        this.probeResults = new ProbeResultWaits(thread, builder.probeResultWait);
        this.retention = new RecordRetention(builder.recordRetention);
    }

    /** A store on the Redis at {@code uri} ({@code redis://} or {@code rediss://}) with the key prefix {@code agentfuse:}. */
    public static RedisStateStore create(String uri) {
        return builder(uri).build();
    }

    /** A store on the Redis at {@code uri} whose keys and channel start with {@code keyPrefix}. */
    public static RedisStateStore create(String uri, String keyPrefix) {
        return builder(uri).keyPrefix(keyPrefix).build();
    }

    /** A builder for a store on the Redis at {@code uri}. */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }

    @Override
    public void start(Listener listener) {
        Objects.requireNonNull(listener, "listener");
        if (this.listener != null) {
            throw new IllegalStateException("the store is started already; one registry owns a store");
        }
        this.listener = listener;
        link.open(this::deliver, this::reconnected);
        long every = resyncInterval.toMillis();
        thread.scheduleWithFixedDelay(this::resync, every, every, TimeUnit.MILLISECONDS);
        long windows = windowInterval.toMillis();
        thread.scheduleWithFixedDelay(this::windowsDue, windows, windows, TimeUnit.MILLISECONDS);
    }

    private void windowsDue() {
        // while the store's breaker is OPEN nothing could be shared; HALF_OPEN lets one window probe
        if (closed || !link.isConnected() || breaker().state() == CircuitState.OPEN) {
            return;
        }
        try {
            listener.onWindowsDue();
        } catch (RuntimeException e) {
            LOG.warn("sharing breaker windows with Redis failed", e);
        }
    }

    private void deliver(String message) {
        ReceivedRecords.message(message, keys.channel()).ifPresent(state -> {
            try {
                listener.onShared(state);
            } catch (RuntimeException e) {
                LOG.warn("applying the shared state of {} failed", state.breaker(), e);
            }
            probeResults.changed(state); // after the listener applied it, so a lease answer finds it applied
        });
    }

    /** A connection came (back) up: Redis may be called at once, and what was missed is read back. */
    private void reconnected() {
        if (link.isConnected()) {
            guarded.reconnected();
            resync();
        }
    }

    private void resync() {
        if (closed || !link.isConnected()) {
            return;
        }
        try {
            listener.onResync();
        } catch (RuntimeException e) {
            LOG.warn("resyncing breakers with Redis failed", e);
        }
    }

    @Override
    public CompletionStage<Long> publish(SharedBreakerState state) {
        return guarded.eval(RedisScripts.PUBLISH, ScriptOutputType.INTEGER,
                new String[] {keys.record(state.breaker()), keys.lease(state.breaker())}, SharedStateCodec.encodeUnversioned(state),
                keys.channel(), Long.toString(retention.ttlMillis(state)));
    }

    @Override
    public CompletionStage<Optional<SharedBreakerState>> read(String breaker) {
        return guarded.<String>eval(RedisScripts.READ, ScriptOutputType.VALUE, new String[] {keys.record(breaker)})
                .thenApply(ReceivedRecords::record);
    }

    @Override
    public CompletionStage<ProbeLease> tryProbeLease(String breaker, long seenVersion, String holder, Duration ttl) {
        return probeResults.whileAsked(breaker, () -> guarded.<List<Object>>eval(RedisScripts.LEASE, ScriptOutputType.MULTI,
                        new String[] {keys.lease(breaker), keys.record(breaker)}, holder, Long.toString(Math.max(1, ttl.toMillis())),
                        Long.toString(seenVersion))
                .thenCompose(answer -> switch (((Long) answer.get(0)).intValue()) {
                    case 1 -> CompletableFuture.completedFuture(ProbeLease.granted((Long) answer.get(1)));
                    case 0 -> probeResults.heldElsewhere(breaker, seenVersion, (Long) answer.get(1));
                    default -> CompletableFuture.completedFuture(ProbeLease.superseded(ReceivedRecords.record((String) answer.get(2))));
                }));
    }

    @Override
    public void releaseProbeLease(String breaker, String holder) {
        guarded.eval(RedisScripts.RELEASE, ScriptOutputType.INTEGER, new String[] {keys.lease(breaker)}, holder);
    }

    @Override
    public CompletionStage<FleetWindow> shareWindow(String breaker, String trigger, long generation, String holder,
                                                    long calls, long hits) {
        long maxAgeMillis = 3 * windowInterval.toMillis();
        return guarded.<List<Long>>eval(RedisScripts.WINDOW, ScriptOutputType.MULTI, new String[] {keys.window(breaker, trigger)}, holder,
                        Long.toString(calls), Long.toString(hits), Long.toString(maxAgeMillis), Long.toString(generation))
                .thenApply(sum -> new FleetWindow(sum.get(0), sum.get(1)));
    }

    /** Whether both connections to Redis are up now. */
    public boolean isConnected() {
        return link.isConnected();
    }

    /** The breaker that guards the store's own calls to Redis, named {@code state:redis}. */
    public CircuitBreaker breaker() {
        return guarded.breaker();
    }

    /** The prefix of every key and of the channel. */
    public String keyPrefix() {
        return keys.prefix();
    }

    /** How long a lease answer waits for another instance's probe result ({@link Builder#probeResultWait}). */
    public Duration probeResultWait() {
        return probeResults.waitTime();
    }

    /** Closes the connections and stops the store's thread; never blocks for Redis. */
    @Override
    public void close() {
        closed = true;
        thread.shutdownNow();
        probeResults.close();
        link.close();
    }

    @Override
    public String toString() {
        return "RedisStateStore[" + link + ", prefix " + keys.prefix() + "]";
    }

    /**
     * Collects a store's settings: key prefix ({@code agentfuse:}), command timeout ({@link CommandTimeout}),
     * resync interval (30 s), window interval (1 s), probe result wait (250 ms), retention (1 day). Not thread-safe.
     */
    public static final class Builder {
        private final String uri;
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration commandTimeout;
        private Duration resyncInterval = Duration.ofSeconds(30);
        private Duration windowInterval = Duration.ofSeconds(1);
        private Duration probeResultWait = Duration.ofMillis(250);
        private Duration recordRetention = RecordRetention.DEFAULT_KEEP;

        private Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
            if (!uri.startsWith("redis://") && !uri.startsWith("rediss://")) {
                throw new IllegalArgumentException("state.redis.uri must start with redis:// or rediss://, but was '" + uri + "'");
            }
            this.commandTimeout = CommandTimeout.of(uri);
        }

        /** The prefix of every key and of the channel; default {@code agentfuse:}. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
            return this;
        }

        /** How long a call to Redis may take before it counts as failed; default the URI's {@code timeout}, else 1 s. */
        public Builder commandTimeout(Duration commandTimeout) {
            this.commandTimeout = Checks.positive("commandTimeout", commandTimeout);
            return this;
        }

        /**
         * How often the rate triggers' windows are shared and summed across the fleet; default 1 s.
         * A window not shared again within three intervals (its instance is gone) leaves the sum.
         */
        public Builder windowInterval(Duration windowInterval) {
            this.windowInterval = Checks.positive("windowInterval", windowInterval);
            return this;
        }

        /**
         * How long an instance that asks for a breaker's probe lease while another holds it waits for
         * that probe's result (its close or new trip) before it is refused; never longer than the
         * lease has left; default 250 ms, {@link Duration#ZERO} refuses at once ({@link ProbeResultWaits}).
         */
        public Builder probeResultWait(Duration probeResultWait) {
            this.probeResultWait = Checks.notNegative("probeResultWait", probeResultWait);
            return this;
        }

        /** How long a breaker's record stays in Redis after a close or a trip's open time; default 1 day ({@link RecordRetention}). */
        public Builder recordRetention(Duration recordRetention) {
            this.recordRetention = Checks.positive("recordRetention", recordRetention);
            return this;
        }

        /** How often every breaker is read back from Redis, in case a message was lost; default 30 s. */
        public Builder resyncInterval(Duration resyncInterval) {
            this.resyncInterval = Checks.positive("resyncInterval", resyncInterval);
            return this;
        }

        /** The store; it connects when a registry starts it. */
        public RedisStateStore build() {
            return new RedisStateStore(this);
        }
    }
}
