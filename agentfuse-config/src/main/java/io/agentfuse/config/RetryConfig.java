package io.agentfuse.config;

import io.agentfuse.core.Clock;
import io.agentfuse.core.retry.Jitter;
import io.agentfuse.core.retry.RetryBudget;
import io.agentfuse.core.retry.RetryPolicy;
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
 * @param jitter          how waits are randomised ({@link Jitter}, written in lower case)
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

    /**
     * The core retry policy these settings stand for, drawing on {@code budget} (share one budget
     * between the guards that call the same upstream; see {@link Budget#toRetryBudget}).
     */
    public RetryPolicy toRetryPolicy(RetryBudget budget) {
        return RetryPolicy.builder()
                .maxAttempts(maxAttempts)
                .initialDelay(initialDelay)
                .multiplier(multiplier)
                .maxDelay(maxDelay)
                .jitter(jitter)
                .honorRetryAfter(honorRetryAfter)
                .budget(Objects.requireNonNull(budget, "budget"))
                .build();
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

        /** A fresh core budget with these settings, on {@code clock}. */
        public RetryBudget toRetryBudget(Clock clock) {
            return RetryBudget.of(percent, minPerSecond, ttl, clock);
        }
    }
}
