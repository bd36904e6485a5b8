package io.agentfuse.cli;

import io.agentfuse.config.BreakerConfig.Window;
import io.agentfuse.config.BreakerConfig;
import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.RetryConfig;
import io.agentfuse.config.ToolConfig;
import io.agentfuse.core.retry.Jitter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One-line descriptions of configuration values, as {@link ConfigSummary} prints them. */
final class Describe {

    private Describe() {
    }

    static String breaker(BreakerConfig breaker) {
        var triggers = new ArrayList<String>();
        breaker.consecutiveTimeouts().ifPresent(trigger -> triggers.add(trigger.count() + " timeouts (or > "
                + duration(trigger.slowerThan()) + ") in a row"));
        breaker.consecutiveErrors().ifPresent(count -> triggers.add(count + " failures in a row"));
        breaker.consecutive5xx().ifPresent(count -> triggers.add(count + " × 5xx in a row"));
        breaker.consecutive429().ifPresent(count -> triggers.add(count + " × 429 in a row"));
        breaker.tokenOveruse().ifPresent(trigger -> triggers.add((trigger.count() == 1 ? "a call" : trigger.count()
                + " calls in a row") + " over " + trigger.maxTokensPerCall() + " tokens"));
        breaker.failureRate().ifPresent(trigger -> triggers.add("> " + percent(trigger.threshold())
                + " failures over " + window(trigger.window()) + " (min " + trigger.minCalls() + ")"));
        breaker.slowCallRate().ifPresent(trigger -> triggers.add("> " + percent(trigger.threshold())
                + " slower than " + duration(trigger.slowerThan()) + " over " + window(trigger.window())
                + " (min " + trigger.minCalls() + ")"));
        return "opens on " + String.join(", ", triggers) + "; stays open " + duration(breaker.resetTimeout())
                + ", then " + breaker.halfOpenRequests() + (breaker.halfOpenRequests() == 1 ? " probe" : " probes");
    }

    static String retry(RetryConfig retry) {
        if (retry.maxAttempts() == 1) {
            return "no retries";
        }
        RetryConfig.Budget budget = retry.budget();
        return retry.maxAttempts() + " attempts, waits " + waits(retry) + ", " + jitter(retry.jitter())
                + (retry.honorRetryAfter() ? ", honours Retry-After" : ", ignores Retry-After")
                + "; budget " + percent(budget.percent()) + " of calls over " + duration(budget.ttl())
                + ", at least " + budget.minPerSecond() + "/s";
    }

    static String tool(ToolConfig tool) {
        return "timeout " + duration(tool.timeout()) + ", " + tool.retries()
                + (tool.retries() == 1 ? " retry" : " retries") + "; breaker " + breaker(tool.circuitBreaker());
    }

    /** {@code claude-haiku-4 → gpt-4o-mini → give up}. */
    static String chain(List<String> fallbacks) {
        var steps = new ArrayList<>(fallbacks);
        steps.add("give up");
        return String.join(" → ", steps);
    }

    static String duration(Duration duration) {
        return DurationFormat.format(duration);
    }

    static String percent(double fraction) {
        return BigDecimal.valueOf(fraction * 100).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString()
                + "%";
    }

    static String bytes(long bytes) {
        String[] units = {"B", "KB", "MB", "GB"};
        int unit = 0;
        double value = bytes;
        while (value >= 1024 && value % 1024 == 0 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return (long) value + units[unit];
    }

    /** The waits before each retry, as the seed lists them: {@code 2s, 4s, 8s}. */
    private static String waits(RetryConfig retry) {
        var waits = new ArrayList<String>();
        double nanos = retry.initialDelay().toNanos();
        for (int retryNumber = 1; retryNumber < retry.maxAttempts() && waits.size() < 5; retryNumber++) {
            long capped = (long) Math.min(nanos, retry.maxDelay().toNanos());
            waits.add(duration(Duration.ofMillis(Duration.ofNanos(capped).toMillis())));
            nanos *= retry.multiplier();
        }
        return String.join(", ", waits) + (retry.maxAttempts() - 1 > waits.size() ? ", ..." : "");
    }

    private static String jitter(Jitter jitter) {
        return jitter == Jitter.NONE ? "no jitter" : jitter.name().toLowerCase(Locale.ROOT) + " jitter";
    }

    private static String window(Window window) {
        if (window instanceof Window.Calls calls) {
            return "the last " + calls.size() + " calls";
        }
        return "the last " + duration(((Window.Time) window).length());
    }
}
