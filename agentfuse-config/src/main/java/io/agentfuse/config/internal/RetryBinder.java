package io.agentfuse.config.internal;

import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.RetryConfig;
import io.agentfuse.core.retry.Jitter;
import java.time.Duration;

/** Reads a {@code retry:} section: the top-level one over the defaults, or a model's over the top-level one. */
final class RetryBinder {

    private RetryBinder() {
    }

    static RetryConfig read(MapReader section, RetryConfig defaults) {
        int maxAttempts = section.integer("maxAttempts", defaults.maxAttempts(), 1, Integer.MAX_VALUE);
        Duration initialDelay = section.nonNegativeDuration("initialDelay", defaults.initialDelay());
        double multiplier = section.decimal("multiplier", defaults.multiplier(), 1.0);
        Duration maxDelay = section.nonNegativeDuration("maxDelay", defaults.maxDelay());
        boolean written = section.find("maxDelay").isPresent() || section.find("initialDelay").isPresent();
        if (written && maxDelay.compareTo(initialDelay) < 0) {
            section.error("maxDelay", "must not be less than initialDelay (" + DurationFormat.format(initialDelay)
                    + "), but was " + DurationFormat.format(maxDelay));
        }
        Jitter jitter = section.choice("jitter", defaults.jitter());
        boolean honorRetryAfter = section.bool("honorRetryAfter", defaults.honorRetryAfter());
        MapReader budget = section.section("budget");
        var retryBudget = new RetryConfig.Budget(
                budget.fraction("percent", defaults.budget().percent()),
                budget.integer("minPerSecond", defaults.budget().minPerSecond(), 0, Integer.MAX_VALUE),
                budget.duration("ttl", defaults.budget().ttl()));
        budget.finish();
        section.finish();
        return new RetryConfig(maxAttempts, initialDelay, multiplier, maxDelay, jitter, honorRetryAfter, retryBudget);
    }
}
