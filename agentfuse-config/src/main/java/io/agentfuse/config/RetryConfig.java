package io.agentfuse.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code retry:} section (and a model's {@code retry:} override, merged key by key over it).
 *
 * <p>Defaults ({@link ConfigDefaults#RETRY}) are the seed's: 4 attempts in all, waiting
 * 2 s, 4 s, 8 s between them (initial delay 2 s, multiplier 2, at most 30 s), no jitter,
 * {@code Retry-After} honoured, and a retry budget of 20 % of recent calls with a floor of
 * 10 retries per second over a 10 s window. Immutable and thread-safe.
 *
 * <pre>{@code
 * retry:
 *   maxAttempts: 4
 *   initialDelay: 2s
 *   multiplier: 2
 *   maxDelay: 30s
 *   jitter: none                 # none | full | equal | decorrelated
 *   honorRetryAfter: true
 *   budget: { percent: 20%, minPerSecond: 10, ttl: 10s }
 * }</pre>
 *
 * @param maxAttempts     attempts in all, the first included ({@code >= 1}; 1 = no retry)
 * @param initialDelay    wait before the first retry ({@code >= 0})
 * @param multiplier      growth of the wait per retry ({@code >= 1})
 * @param maxDelay        cap of a single wait ({@code >= initialDelay})
 * @param jitter          how waits are randomised
 * @param honorRetryAfter whether an upstream {@code Retry-After} replaces the computed wait
 * @param budget          the fleet-friendly limit on retries
 */
public record RetryConfig(int maxAttempts, Duration initialDelay, double multiplier, Duration maxDelay,
                          Jitter jitter, boolean honorRetryAfter, Budget budget) {

    public RetryConfig {
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(jitter, "jitter");
        Objects.requireNonNull(budget, "budget");
    }

    /** How waits between attempts are randomised; written in YAML in lower case. */
    public enum Jitter {
        /** Exactly the computed wait. */
        NONE,
        /** Uniform between 0 and the computed wait. */
        FULL,
        /** Half the computed wait plus a uniform share of the other half. */
        EQUAL,
        /** Uniform between the initial delay and three times the previous wait. */
        DECORRELATED
    }

    /**
     * The retry budget: retries may be at most {@code percent} of the calls seen in the last
     * {@code ttl}, but at least {@code minPerSecond} per second are always allowed.
     *
     * @param percent      share of recent calls that may be retries, in (0, 1]
     * @param minPerSecond retries per second always allowed ({@code >= 0})
     * @param ttl          how long a call counts as recent ({@code > 0})
     */
    public record Budget(double percent, int minPerSecond, Duration ttl) {

        public Budget {
            Objects.requireNonNull(ttl, "ttl");
        }
    }
}
