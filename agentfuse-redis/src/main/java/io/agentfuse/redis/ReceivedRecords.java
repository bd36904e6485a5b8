package io.agentfuse.redis;

import io.agentfuse.core.breaker.shared.SharedBreakerState;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * What the store reads back from Redis, decoded: a message on the channel or a record a script
 * answered. What this instance cannot take is no change, with a warning that quotes nothing of it,
 * since anyone with access to Redis may write it (the codec's reasons quote nothing either).
 */
final class ReceivedRecords {

    /** The store's own logger: these warnings are the store's. */
    private static final Logger LOG = LoggerFactory.getLogger(RedisStateStore.class);

    private ReceivedRecords() {
    }

    /** A message received on {@code channel}, decoded, or empty. */
    static Optional<SharedBreakerState> message(String message, String channel) {
        try {
            return Optional.of(SharedStateCodec.decode(message));
        } catch (IllegalArgumentException malformed) {
            LOG.warn("ignored a message of {} characters on {}: {}", message.length(), channel, malformed.getMessage());
            return Optional.empty();
        }
    }

    /** A record Redis's script trusted (or {@code null}: none), decoded, or empty. */
    static Optional<SharedBreakerState> record(String record) {
        if (record == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(SharedStateCodec.decode(record));
        } catch (IllegalArgumentException malformed) {
            LOG.warn("ignored a breaker record of {} characters in Redis: {}", record.length(), malformed.getMessage());
            return Optional.empty();
        }
    }
}
