package io.agentfuse.core.breaker;

import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The immutable settings of a {@link CircuitBreaker}. Build one with {@link #builder()}; every
 * setter validates its value at once and names it in the message.
 *
 * <p>Defaults (from the seeds): the triggers of {@link Trigger#defaults()}, {@code resetTimeout}
 * 5 minutes, one half-open probe that must succeed to close, probes expire after 2 minutes
 * without an answer, no open-time backoff, automatic half-open, the default classifier, and a
 * server's {@code Retry-After} honoured for up to 1 hour.
 *
 * <pre>{@code
 * CircuitBreakerConfig config = CircuitBreakerConfig.builder()
 *     .trigger(Trigger.consecutiveErrors(3))
 *     .resetTimeout(Duration.ofMinutes(5))
 *     .halfOpenRequests(1)
 *     .build();
 * }</pre>
 *
 * @param triggers         the conditions that open the breaker; the first to fire is the reason
 * @param resetTimeout     how long the breaker stays OPEN before it half-opens (first trip)
 * @param halfOpenRequests how many probe calls HALF_OPEN lets through
 * @param successesToClose how many of those probes must succeed to close (at most {@code halfOpenRequests})
 * @param probeTimeout     how long a probe may stay unanswered before its permit is given back
 * @param openBackoff      how the open time grows over repeated trips
 * @param autoHalfOpen     {@code false} for user-led reset: OPEN is left only through
 *                         {@link CircuitBreaker#transitionToHalfOpen()} or an operator action
 * @param classifier       maps exceptions and results to outcomes
 * @param maxRetryAfter    the longest a server's {@code Retry-After} may keep the breaker open;
 *                         a bogus hint ({@code Retry-After: 99999999}) must not lock it for years
 */
public record CircuitBreakerConfig(
        List<Trigger> triggers,
        Duration resetTimeout,
        int halfOpenRequests,
        int successesToClose,
        Duration probeTimeout,
        OpenBackoff openBackoff,
        boolean autoHalfOpen,
        OutcomeClassifier classifier,
        Duration maxRetryAfter) {

    private static final CircuitBreakerConfig DEFAULTS = builder().build();

    /** Validates the combination; prefer {@link #builder()}, which validates each value too. */
    public CircuitBreakerConfig {
        triggers = List.copyOf(triggers);
        Checks.positive("resetTimeout", resetTimeout);
        Checks.atLeast("halfOpenRequests", halfOpenRequests, 1);
        Checks.atLeast("successesToClose", successesToClose, 1);
        if (successesToClose > halfOpenRequests) {
            throw new IllegalArgumentException("successesToClose must be <= halfOpenRequests ("
                    + halfOpenRequests + "), but was " + successesToClose);
        }
        Checks.positive("probeTimeout", probeTimeout);
        Checks.notNull("openBackoff", openBackoff);
        Checks.notNull("classifier", classifier);
        Checks.positive("maxRetryAfter", maxRetryAfter);
    }

    /**
     * The most tokens a call may use before it counts as {@link io.agentfuse.core.Outcome#TOKEN_OVERUSE}:
     * the {@code tokenOveruse} trigger's limit (the lowest, if several), or {@link Long#MAX_VALUE}.
     * The one place this limit is decided.
     */
    public long tokenLimit() {
        return triggers.stream().filter(Trigger.TokenOveruse.class::isInstance)
                .mapToLong(trigger -> ((Trigger.TokenOveruse) trigger).maxTokensPerCall())
                .min().orElse(Long.MAX_VALUE);
    }

    /**
     * The shortest duration a trigger judges calls by ({@code slowerThan} of
     * {@code consecutiveTimeouts} or {@code slowCallRate}), in nanoseconds, or {@link Long#MAX_VALUE}
     * if none does. A call, or a half-open probe, slower than this is slow.
     */
    public long slowCallNanos() {
        long slowest = Long.MAX_VALUE;
        for (Trigger trigger : triggers) {
            if (trigger instanceof Trigger.ConsecutiveTimeouts t) {
                slowest = Math.min(slowest, t.slowerThan().toNanos());
            } else if (trigger instanceof Trigger.SlowCallRate t) {
                slowest = Math.min(slowest, t.slowerThan().toNanos());
            }
        }
        return slowest;
    }

    /** The shortest time window of a rate trigger in nanoseconds, or {@link Long#MAX_VALUE} if none is time-based. */
    public long minWindowNanos() {
        long shortest = Long.MAX_VALUE;
        for (Trigger trigger : triggers) {
            Trigger.Window window = trigger instanceof Trigger.FailureRate t ? t.window()
                    : trigger instanceof Trigger.SlowCallRate t ? t.window() : null;
            if (window != null && !window.isCountBased()) {
                shortest = Math.min(shortest, window.duration().toNanos());
            }
        }
        return shortest;
    }

    /** The seed's defaults. */
    public static CircuitBreakerConfig defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Collects and validates settings; not thread-safe, use it on one thread. */
    public static final class Builder {
        private List<Trigger> triggers;
        private boolean triggersCustomised;
        private Duration resetTimeout = Duration.ofMinutes(5);
        private int halfOpenRequests = 1;
        private Integer successesToClose;
        private Duration probeTimeout = Duration.ofMinutes(2);
        private OpenBackoff openBackoff = OpenBackoff.NONE;
        private boolean autoHalfOpen = true;
        private OutcomeClassifier classifier = OutcomeClassifier.defaults();
        private Duration maxRetryAfter = Duration.ofHours(1);

        private Builder() {
            this.triggers = new ArrayList<>(Trigger.defaults());
        }

        private Builder(CircuitBreakerConfig config) {
            this.triggers = new ArrayList<>(config.triggers);
            this.triggersCustomised = true;
            this.resetTimeout = config.resetTimeout;
            this.halfOpenRequests = config.halfOpenRequests;
            this.successesToClose = config.successesToClose;
            this.probeTimeout = config.probeTimeout;
            this.openBackoff = config.openBackoff;
            this.autoHalfOpen = config.autoHalfOpen;
            this.classifier = config.classifier;
            this.maxRetryAfter = config.maxRetryAfter;
        }

        /**
         * Adds a trigger. The first call replaces the default triggers, so a builder that names
         * its triggers gets exactly those.
         */
        public Builder trigger(Trigger trigger) {
            Checks.notNull("trigger", trigger);
            if (!triggersCustomised) {
                triggers = new ArrayList<>();
                triggersCustomised = true;
            }
            triggers.removeIf(existing -> existing.name().equals(trigger.name()));
            triggers.add(trigger);
            return this;
        }

        /** Replaces all triggers; an empty list gives a breaker that only operators open. */
        public Builder triggers(List<Trigger> triggers) {
            Checks.notNull("triggers", triggers);
            triggers.forEach(trigger -> Checks.notNull("trigger", trigger));
            this.triggers = new ArrayList<>(triggers);
            this.triggersCustomised = true;
            return this;
        }

        /** How long OPEN lasts before the breaker half-opens; default 5 minutes. */
        public Builder resetTimeout(Duration resetTimeout) {
            Checks.positive("resetTimeout", resetTimeout);
            this.resetTimeout = resetTimeout;
            return this;
        }

        /** Probe calls let through in HALF_OPEN; default 1. */
        public Builder halfOpenRequests(int halfOpenRequests) {
            Checks.atLeast("halfOpenRequests", halfOpenRequests, 1);
            this.halfOpenRequests = halfOpenRequests;
            return this;
        }

        /** Successful probes needed to close; default: all of {@code halfOpenRequests}. */
        public Builder successesToClose(int successesToClose) {
            Checks.atLeast("successesToClose", successesToClose, 1);
            this.successesToClose = successesToClose;
            return this;
        }

        /** How long a probe may go unanswered before its permit is freed; default 2 minutes. */
        public Builder probeTimeout(Duration probeTimeout) {
            Checks.positive("probeTimeout", probeTimeout);
            this.probeTimeout = probeTimeout;
            return this;
        }

        /** Growth of the open time over repeated trips; default {@link OpenBackoff#NONE}. */
        public Builder openBackoff(OpenBackoff openBackoff) {
            Checks.notNull("openBackoff", openBackoff);
            this.openBackoff = openBackoff;
            return this;
        }

        /** {@code false}: never half-open on a timer, only by explicit action (user-led reset). */
        public Builder autoHalfOpen(boolean autoHalfOpen) {
            this.autoHalfOpen = autoHalfOpen;
            return this;
        }

        /** The classifier for exceptions and results; default {@link OutcomeClassifier#defaults()}. */
        public Builder classifier(OutcomeClassifier classifier) {
            this.classifier = Objects.requireNonNull(classifier, "classifier");
            return this;
        }

        /** The longest a server's {@code Retry-After} may keep the breaker open; default 1 hour. */
        public Builder maxRetryAfter(Duration maxRetryAfter) {
            Checks.positive("maxRetryAfter", maxRetryAfter);
            this.maxRetryAfter = maxRetryAfter;
            return this;
        }

        /** The immutable configuration. */
        public CircuitBreakerConfig build() {
            int toClose = successesToClose == null ? halfOpenRequests : successesToClose;
            return new CircuitBreakerConfig(triggers, resetTimeout, halfOpenRequests, toClose,
                    probeTimeout, openBackoff, autoHalfOpen, classifier, maxRetryAfter);
        }
    }
}
