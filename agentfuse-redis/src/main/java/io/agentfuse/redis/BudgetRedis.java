package io.agentfuse.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The budget ledger's one connection to Redis: connected in the background (again every second
 * until Redis first answers, then by Lettuce's reconnecting), commands refused at once while it is
 * down, every script's answer awaited for a bounded time only — a frozen Redis costs a caller
 * that wait and no more — and bounded in size ({@link ReplySizeLimit}): a huge value costs a
 * reconnect, not the heap. Thread-safe.
 */
final class BudgetRedis implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BudgetRedis.class);

    private final RedisURI uri;
    private final ScheduledExecutorService thread;
    private final ClientResources resources;
    private final RedisClient client;
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile boolean closed;
    private final WarningLimit warnings = new WarningLimit();

    BudgetRedis(String uri, Duration commandTimeout, ScheduledExecutorService thread) {
        this.uri = RedisURI.create(uri);
        this.uri.setTimeout(commandTimeout);
        this.thread = thread;
        this.resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
                // No reply of the budgets' scripts is longer than the list of windows (and the replaced fleet keys
                // after it): a longer one is refused unread.
                .nettyCustomizer(ReplySizeLimit.onEveryConnection((long) BudgetCalls.MAX_LISTED * BudgetScripts.LISTED_FIELDS + 1))
                .build();
        this.client = RedisClient.create(resources, this.uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).build())
                .build());
    }

    /** Connects in the background; {@code onConnected} runs on the ledger's thread once the connection is up. */
    void open(Runnable onConnected) {
        run(() -> connect(onConnected));
    }

    private void connect(Runnable onConnected) {
        if (closed) {
            return;
        }
        client.connectAsync(StringCodec.UTF8, uri).whenComplete((connected, failure) -> {
            if (failure != null) {
                String refusal = RedisLink.authenticationRefusal(failure);
                // One warning per kind of failure, as the store's: a cold start's timeout must not hide a refused password.
                if (!warnings.due(refusal != null ? "authentication" : "unreachable")) {
                    LOG.debug("cannot reach Redis at {} for budgets yet: {}", uri.toURI(), failure.toString());
                } else if (refusal != null) {
                    LOG.warn("Redis at {} refused the budget ledger's authentication ({}): check the password (and user) in"
                            + " its URI; budgets follow state.redis.budgetOnLoss, connecting again every second", uri.toURI(), refusal);
                } else {
                    LOG.warn("cannot reach Redis at {} for budgets; they follow state.redis.budgetOnLoss until it answers: {}",
                            uri.toURI(), failure.toString());
                }
                schedule(() -> connect(onConnected), 1_000);
            } else if (closed) {
                connected.closeAsync();
            } else {
                connection = connected;
                run(onConnected);
            }
        });
    }

    /** Whether the connection is up now. */
    boolean isConnected() {
        StatefulRedisConnection<String, String> current = connection;
        return current != null && current.isOpen();
    }

    /**
     * Runs {@code script}; the stage fails at once while disconnected, and with a timeout when Redis
     * has not answered within {@code wait} (the command itself may still run later).
     */
    <T> CompletableFuture<T> eval(String script, ScriptOutputType type, String[] keys, String[] args, Duration wait) {
        StatefulRedisConnection<String, String> current = connection;
        if (current == null || !current.isOpen()) {
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
        }
        try {
            return current.async().<T>eval(script, type, keys, args).toCompletableFuture()
                    .orTimeout(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RuntimeException rejected) {
            return CompletableFuture.failedFuture(rejected);
        }
    }

    /** Runs {@code task} on the ledger's thread after {@code millis}, unless closed. */
    void schedule(Runnable task, long millis) {
        if (!closed) {
            try {
                thread.schedule(task, millis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closing) {
                // closed meanwhile
            }
        }
    }

    private void run(Runnable task) {
        schedule(task, 0);
    }

    @Override
    public void close() {
        closed = true;
        StatefulRedisConnection<String, String> current = connection;
        CompletableFuture<Void> closing = current == null ? CompletableFuture.completedFuture(null) : current.closeAsync();
        closing.whenComplete((ignored, failure) -> client.shutdownAsync(0, 2, TimeUnit.SECONDS)
                .whenComplete((done, error) -> resources.shutdown(0, 2, TimeUnit.SECONDS)));
    }

    @Override
    public String toString() {
        return uri.toURI().toString();
    }
}
