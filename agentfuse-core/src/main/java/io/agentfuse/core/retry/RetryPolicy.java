package io.agentfuse.core.retry;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.MalformedAnswer;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * When and how long to wait before trying a failed call again. Immutable; the decisions are pure
 * functions, so a {@link io.agentfuse.core.Guard} can apply one policy to any number of concurrent calls.
 *
 * <p>Defaults (the seed): 4 attempts in all, waiting 2 s, 4 s, 8 s, then giving up with the last
 * error; multiplier 2, at most 30 s per wait, no jitter, {@code Retry-After} honoured, no overall
 * deadline, no budget. Only the retryable outcome kinds are retried ({@link Outcome#isRetryableByDefault()}:
 * timeouts, 5xx, 429, 529, connection errors, and a {@link MalformedAnswer} wherever 5xx are); a 4xx is
 * returned at once. A server's
 * {@code Retry-After} / {@code retry-after-ms} (and the rate-limit reset headers) replaces the
 * computed wait when it fits {@code maxDelay} and what is left of the deadline; a longer one is not
 * waited at all (docs/design.md §4, wait or fall over): the call ends at once with that error, so a fallback
 * chain moves on, and the breaker is held open that long. {@code x-should-retry: false} stops the retries.
 *
 * <pre>{@code
 * RetryPolicy retry = RetryPolicy.builder()
 *     .maxAttempts(4).initialDelay(Duration.ofSeconds(2)).multiplier(2)
 *     .jitter(Jitter.EQUAL)
 *     .budget(RetryBudget.of(0.2, 10, Duration.ofSeconds(10)))
 *     .build();
 * }</pre>
 *
 * @param maxAttempts     attempts in all, the first included; 1 means no retry
 * @param initialDelay    the wait before the first retry
 * @param multiplier      growth of the wait per retry
 * @param maxDelay        the cap on any single computed wait; a server's wait longer than it is not waited out
 * @param jitter          how waits are spread
 * @param honorRetryAfter whether a server's {@code Retry-After} replaces the computed wait
 * @param deadline        the overall time for all attempts and waits; {@code null} for none
 * @param retryOn         the outcome kinds worth another attempt
 * @param budget          the shared retry budget; {@code null} for none
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, double multiplier, Duration maxDelay,
                          Jitter jitter, boolean honorRetryAfter, Duration deadline, Set<Outcome> retryOn,
                          RetryBudget budget) {

    private static final RetryPolicy DEFAULTS = builder().build();
    private static final RetryPolicy NONE = builder().maxAttempts(1).build();

    /** Validates the values; prefer {@link #builder()}. */
    public RetryPolicy {
        Checks.atLeast("maxAttempts", maxAttempts, 1);
        Checks.notNegative("initialDelay", initialDelay);
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("multiplier must be >= 1, but was " + multiplier);
        }
        Checks.notNegative("maxDelay", maxDelay);
        Checks.notNull("jitter", jitter);
        if (deadline != null) {
            Checks.positive("deadline", deadline);
        }
        Checks.notNull("retryOn", retryOn);
        retryOn = retryOn.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(retryOn));
    }

    /** The seed's policy: 4 attempts, 2 s / 4 s / 8 s. */
    public static RetryPolicy defaults() {
        return DEFAULTS;
    }

    /** One attempt, no retry. */
    public static RetryPolicy none() {
        return NONE;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this policy. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Whether a call that ended as {@code outcome} (with {@code error}, possibly null) is worth
     * another attempt, leaving attempts, budget and deadline aside.
     */
    public boolean isRetryable(Outcome outcome, Throwable error) {
        Throwable cause = OutcomeClassifier.unwrap(error);
        // A malformed answer is the callee's fault, as a 5xx is: retried wherever a 5xx is.
        boolean retried = retryOn.contains(outcome)
                || outcome == Outcome.ERROR && cause instanceof MalformedAnswer && retryOn.contains(Outcome.SERVER_ERROR);
        if (!retried) {
            return false;
        }
        return !(cause instanceof HttpStatusException http) || http.shouldRetry().orElse(Boolean.TRUE);
    }

    /**
     * The backoff before retry number {@code retry} (1 for the first retry), in nanoseconds,
     * without any server hint.
     *
     * @param previousNanos the wait before the previous retry (the initial delay for the first)
     * @param randomUnit    a uniform random number in [0, 1), used only with jitter
     */
    public long backoffNanos(int retry, long previousNanos, double randomUnit) {
        long initial = initialDelay.toNanos();
        long cap = maxDelay.toNanos();
        double exponential = initial * Math.pow(multiplier, Math.max(0, retry - 1));
        long capped = (long) Math.min(exponential, (double) cap);
        return Math.min(cap, jitter.apply(capped, initial, previousNanos, cap, randomUnit));
    }

    /**
     * Whether a server's wait of {@code hintNanos} is waited out (docs/design.md §4, wait or fall over):
     * the policy honours hints, and the wait fits {@code maxDelay} and the {@code remainingNanos}
     * before the deadline. A longer one is not waited for at all: the caller falls over at once.
     */
    public boolean waitsOut(long hintNanos, long remainingNanos) {
        return honorRetryAfter && hintNanos <= maxDelay.toNanos() && hintNanos <= remainingNanos;
    }

    /**
     * The wait before retry number {@code retry}: the server's hint ({@code hintNanos}, or
     * {@link RetryAfter#NONE}) when the policy honours it and it fits {@code maxDelay}, else
     * {@link #backoffNanos}; -1 when the hint is too long to wait for (see {@link #waitsOut}).
     */
    public long delayNanos(int retry, long previousNanos, long hintNanos, double randomUnit) {
        if (honorRetryAfter && hintNanos != RetryAfter.NONE) {
            return hintNanos <= maxDelay.toNanos() ? hintNanos : -1;
        }
        return backoffNanos(retry, previousNanos, randomUnit);
    }

    /** {@link #delayNanos(int, long, long, double)} with the hint read from {@code error}. */
    public long delayNanos(int retry, long previousNanos, Throwable error, long nowEpochMillis, double randomUnit) {
        return delayNanos(retry, previousNanos, RetryAfter.ofError(error, nowEpochMillis), randomUnit);
    }

    /** Collects and validates settings; not thread-safe. */
    public static final class Builder {
        private int maxAttempts = 4;
        private Duration initialDelay = Duration.ofSeconds(2);
        private double multiplier = 2.0;
        private Duration maxDelay = Duration.ofSeconds(30);
        private Jitter jitter = Jitter.NONE;
        private boolean honorRetryAfter = true;
        private Duration deadline;
        private Set<Outcome> retryOn = defaultRetryOn();
        private RetryBudget budget;

        private Builder() {
        }

        private Builder(RetryPolicy policy) {
            maxAttempts = policy.maxAttempts;
            initialDelay = policy.initialDelay;
            multiplier = policy.multiplier;
            maxDelay = policy.maxDelay;
            jitter = policy.jitter;
            honorRetryAfter = policy.honorRetryAfter;
            deadline = policy.deadline;
            retryOn = policy.retryOn.isEmpty() ? EnumSet.noneOf(Outcome.class) : EnumSet.copyOf(policy.retryOn);
            budget = policy.budget;
        }

        private static Set<Outcome> defaultRetryOn() {
            Set<Outcome> kinds = EnumSet.noneOf(Outcome.class);
            for (Outcome outcome : Outcome.values()) {
                if (outcome.isRetryableByDefault()) {
                    kinds.add(outcome);
                }
            }
            return kinds;
        }

        /** Attempts in all, the first included; default 4. */
        public Builder maxAttempts(int maxAttempts) {
            Checks.atLeast("maxAttempts", maxAttempts, 1);
            this.maxAttempts = maxAttempts;
            return this;
        }

        /** The wait before the first retry; default 2 s. */
        public Builder initialDelay(Duration initialDelay) {
            Checks.notNegative("initialDelay", initialDelay);
            this.initialDelay = initialDelay;
            return this;
        }

        /** Growth of the wait per retry; default 2. */
        public Builder multiplier(double multiplier) {
            if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
                throw new IllegalArgumentException("multiplier must be >= 1, but was " + multiplier);
            }
            this.multiplier = multiplier;
            return this;
        }

        /** The cap on a single computed wait, and the longest server wait waited out (a longer one ends the call); default 30 s. */
        public Builder maxDelay(Duration maxDelay) {
            Checks.notNegative("maxDelay", maxDelay);
            this.maxDelay = maxDelay;
            return this;
        }

        /** How waits are spread; default {@link Jitter#NONE}. */
        public Builder jitter(Jitter jitter) {
            this.jitter = Objects.requireNonNull(jitter, "jitter");
            return this;
        }

        /** Whether {@code Retry-After} replaces the computed wait; default true. */
        public Builder honorRetryAfter(boolean honorRetryAfter) {
            this.honorRetryAfter = honorRetryAfter;
            return this;
        }

        /** The overall time for all attempts; never waits past it. Default: none. */
        public Builder deadline(Duration deadline) {
            if (deadline != null) {
                Checks.positive("deadline", deadline);
            }
            this.deadline = deadline;
            return this;
        }

        /** Also retry {@code outcome} (e.g. {@link Outcome#ERROR}). */
        public Builder retryOn(Outcome outcome) {
            if (outcome == Outcome.CLIENT_ERROR || outcome == Outcome.SUCCESS) {
                throw new IllegalArgumentException("retryOn must not include " + outcome + ": it is never worth another attempt");
            }
            retryOn.add(outcome);
            return this;
        }

        /** Do not retry {@code outcome}. */
        public Builder noRetryOn(Outcome outcome) {
            retryOn.remove(outcome);
            return this;
        }

        /** A budget shared with other guards; default none. */
        public Builder budget(RetryBudget budget) {
            this.budget = budget;
            return this;
        }

        /** The immutable policy. */
        public RetryPolicy build() {
            return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitter, honorRetryAfter,
                    deadline, retryOn, budget);
        }
    }
}
