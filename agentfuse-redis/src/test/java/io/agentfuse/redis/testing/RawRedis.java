package io.agentfuse.redis.testing;

import io.lettuce.core.RedisClient;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Plain commands on a test's Redis, as anyone with access to it could send them: writing keys and
 * messages the store did not make. One connection, closed by {@link #close()}.
 */
public final class RawRedis implements AutoCloseable {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    /** A connection to the Redis at {@code uri}. */
    public RawRedis(String uri) {
        this.client = RedisClient.create(uri);
        this.connection = client.connect();
    }

    /** The synchronous commands. */
    public RedisCommands<String, String> commands() {
        return connection.sync();
    }

    /** The value of {@code key}, or null. */
    public String get(String key) {
        return commands().get(key);
    }

    /** Sets {@code key} to {@code value} without an expiry. */
    public void set(String key, String value) {
        commands().set(key, value);
    }

    /** Sets {@code key} to {@code value}, expiring after {@code millis}. */
    public void set(String key, String value, long millis) {
        commands().set(key, value, SetArgs.Builder.px(millis));
    }

    /** The milliseconds {@code key} has left: -1 without an expiry, -2 if it does not exist. */
    public long pttl(String key) {
        return commands().pttl(key);
    }

    /** Publishes {@code message} on {@code channel}. */
    public void publish(String channel, String message) {
        commands().publish(channel, message);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
