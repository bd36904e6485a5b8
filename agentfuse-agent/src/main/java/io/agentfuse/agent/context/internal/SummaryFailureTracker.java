package io.agentfuse.agent.context.internal;

import io.agentfuse.core.Clock;
import java.time.Duration;

/**
 * Counts failed summaries in a row and says when to stop asking the summariser for a while.
 *
 * <p>After {@code maxFailures} failures in a row, summaries are skipped for {@code cooldown}.
 * The count is not cleared by the cooldown: the first summary after it is a probe, and its
 * failure starts a new cooldown at once; any success clears the count. Thread-safe.
 *
 * <p>Not part of the public API: it may change without notice.
 */
public final class SummaryFailureTracker {

    private final int maxFailures;
    private final long cooldownNanos;
    private final Clock clock;
    private int consecutiveFailures;
    private long cooldownEndsAtNanos;

    /** @param clock the time source the cooldown is measured on */
    public SummaryFailureTracker(int maxFailures, Duration cooldown, Clock clock) {
        this.maxFailures = maxFailures;
        this.cooldownNanos = cooldown.toNanos();
        this.clock = clock;
    }

    /** Whether summaries should be skipped now. */
    public synchronized boolean inCooldown() {
        return consecutiveFailures >= maxFailures && clock.nanoTime() - cooldownEndsAtNanos < 0;
    }

    /** Records a summary that was accepted. */
    public synchronized void recordSuccess() {
        consecutiveFailures = 0;
    }

    /** Records a summary that failed; starts the cooldown when failures reach the limit. */
    public synchronized void recordFailure() {
        consecutiveFailures++;
        if (consecutiveFailures >= maxFailures) {
            cooldownEndsAtNanos = clock.nanoTime() + cooldownNanos;
        }
    }

    /** Failed summaries since the last accepted one. */
    public synchronized int consecutiveFailures() {
        return consecutiveFailures;
    }
}
