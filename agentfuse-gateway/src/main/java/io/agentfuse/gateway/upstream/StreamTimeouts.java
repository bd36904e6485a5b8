package io.agentfuse.gateway.upstream;

import java.time.Duration;
import java.util.Objects;

/**
 * The two limits of a streamed call: the time from sending the request to the first event
 * (the model's {@code firstTokenTimeout}), and the longest silence allowed between events once
 * the stream runs. Both end the call with {@link io.agentfuse.core.timeout.CallTimeoutException}.
 *
 * <p>Immutable. {@code new StreamTimeouts(Duration.ofSeconds(20), Duration.ofSeconds(30))}
 *
 * @param firstEvent limit for the first event; positive
 * @param idle       limit between two events; positive
 */
public record StreamTimeouts(Duration firstEvent, Duration idle) {

    public StreamTimeouts {
        requirePositive("firstEvent", firstEvent);
        requirePositive("idle", idle);
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isZero() || value.isNegative() || value.toMillis() < 1) {
            throw new IllegalArgumentException(name + " must be >= 1ms, but was " + value);
        }
    }
}
