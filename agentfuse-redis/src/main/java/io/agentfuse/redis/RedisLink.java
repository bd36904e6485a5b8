package io.agentfuse.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The store's two connections to Redis — one for commands, one subscribed to the fleet's channel —
 * and getting them up: connecting in the background (again every second until Redis answers the
 * first time), then Lettuce's own reconnecting (backing off up to 1 s), with commands rejected at
 * once while disconnected. Everything here runs on the store's thread, so its flags need no lock;
 * the connections themselves are read from any thread.
 */
final class RedisLink {

    private static final Logger LOG = LoggerFactory.getLogger(RedisLink.class);

    private final RedisURI uri;
    private final String channel;
    private final ScheduledExecutorService thread;
    private final ClientResources resources;
    private final RedisClient client;
    private volatile StatefulRedisConnection<String, String> commands;
    private volatile StatefulRedisPubSubConnection<String, String> subscription;
    private volatile boolean closed;
    private boolean connectingCommands;
    private boolean connectingSubscription;
    private boolean retryScheduled;
    private final WarningLimit warnings = new WarningLimit();

    RedisLink(RedisURI uri, Duration commandTimeout, String channel, ScheduledExecutorService thread) {
        this.uri = uri;
        this.channel = channel;
        this.thread = thread;
        this.resources = DefaultClientResources.builder()
                .ioThreadPoolSize(2)
                .computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
                .nettyCustomizer(ReplySizeLimit.onEveryConnection())
                .build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).build())
                .build());
    }

    /**
     * Connects in the background; {@code onMessage} gets each message on the channel and
     * {@code onConnected} runs whenever a connection comes (back) up, both on the store's thread.
     */
    void open(Consumer<String> onMessage, Runnable onConnected) {
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
                onThread(onConnected);
            }
        });
        onThread(() -> connect(onMessage, onConnected));
    }

    private void connect(Consumer<String> onMessage, Runnable onConnected) {
        retryScheduled = false;
        if (closed) {
            return;
        }
        if (commands == null && !connectingCommands) {
            connectingCommands = true;
            client.connectAsync(StringCodec.UTF8, uri).whenCompleteAsync((connection, failure) -> {
                connectingCommands = false;
                if (failure != null) {
                    retry(failure, onMessage, onConnected);
                } else if (closed) {
                    connection.closeAsync();
                } else {
                    commands = connection;
                    onConnected.run();
                }
            }, thread);
        }
        if (subscription == null && !connectingSubscription) {
            connectingSubscription = true;
            client.connectPubSubAsync(StringCodec.UTF8, uri).thenCompose(connection -> {
                connection.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String from, String message) {
                        onThread(() -> onMessage.accept(message));
                    }
                });
                return connection.async().subscribe(channel).toCompletableFuture().handle((ignored, failure) -> {
                    if (failure != null) {
                        connection.closeAsync();
                        throw new IllegalStateException("cannot subscribe to " + channel, failure);
                    }
                    return connection;
                });
            }).whenCompleteAsync((connection, failure) -> {
                connectingSubscription = false;
                if (failure != null) {
                    retry(failure, onMessage, onConnected);
                } else if (closed) {
                    connection.closeAsync();
                } else {
                    subscription = connection;
                    onConnected.run();
                }
            }, thread);
        }
    }

    private void retry(Throwable failure, Consumer<String> onMessage, Runnable onConnected) {
        String refusal = authenticationRefusal(failure);
        // One warning per kind of failure while it goes on: a first attempt that timed out (a cold
        // start) must not hide the refused password every later attempt meets.
        if (warnings.due(refusal != null ? "authentication" : "unreachable")) {
            if (refusal != null) {
                LOG.warn("Redis at {} refused the store's authentication ({}): check the password (and user) in its URI;"
                        + " breakers go on with local state, connecting again every second", uri.toURI(), refusal);
            } else {
                LOG.warn("cannot reach Redis at {}; breakers go on with local state, connecting again every second: {}",
                        uri.toURI(), failure.toString());
            }
        }
        if (!closed && !retryScheduled) {
            retryScheduled = true;
            thread.schedule(() -> connect(onMessage, onConnected), 1, TimeUnit.SECONDS);
        }
    }

    /**
     * Redis's own words when it turned the connection down for its credentials (Lettuce reports
     * that as "Unable to connect", the refusal being a cause), else {@code null}.
     */
    static String authenticationRefusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (cause instanceof RedisCommandExecutionException && message != null
                    && (message.startsWith("NOAUTH") || message.startsWith("WRONGPASS") || message.startsWith("NOPERM")
                    || message.contains("invalid password"))) {
                return message.length() <= 120 ? message : message.substring(0, 120) + "…";
            }
        }
        return null;
    }

    private void onThread(Runnable task) {
        if (!closed) {
            try {
                thread.execute(task);
            } catch (RejectedExecutionException closing) {
                // closed meanwhile: nothing is left to do
            }
        }
    }

    /** The command connection, or {@code null} before it first connected. */
    StatefulRedisConnection<String, String> commands() {
        return commands;
    }

    /** Whether both connections are up now. */
    boolean isConnected() {
        StatefulRedisConnection<String, String> connection = commands;
        StatefulRedisPubSubConnection<String, String> messages = subscription;
        return connection != null && connection.isOpen() && messages != null && messages.isOpen();
    }

    /** Closes both connections and the client, without waiting for Redis. */
    void close() {
        closed = true;
        StatefulRedisConnection<String, String> connection = commands;
        StatefulRedisPubSubConnection<String, String> messages = subscription;
        CompletableFuture.allOf(
                        connection == null ? CompletableFuture.completedFuture(null) : connection.closeAsync(),
                        messages == null ? CompletableFuture.completedFuture(null) : messages.closeAsync())
                .whenComplete((ignored, failure) -> client.shutdownAsync(0, 2, TimeUnit.SECONDS)
                        .whenComplete((done, error) -> resources.shutdown(0, 2, TimeUnit.SECONDS)));
    }

    @Override
    public String toString() {
        return uri.toURI().toString();
    }
}
