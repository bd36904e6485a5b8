package io.agentfuse.core.event;

import io.agentfuse.core.breaker.CircuitBreaker;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the calls each breaker rejected, for operators (admin APIs, dashboards).
 *
 * <p>Counting is a listener rather than part of the breaker so that a breaker nobody watches
 * spends nothing on it: rejecting is the hot path of an open breaker. Register one counter on a
 * {@link io.agentfuse.core.breaker.CircuitBreakerRegistry} to count every breaker, present and future.
 * Thread-safe; counting a rejection allocates nothing after a breaker's first.
 *
 * <pre>{@code
 * RejectionCounter rejections = new RejectionCounter();
 * registry.addListener(rejections);
 * long rejected = rejections.rejected("model:claude-sonnet-4");
 * }</pre>
 */
public final class RejectionCounter implements CircuitBreakerListener {

    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    public void onCallRejected(CircuitBreaker breaker) {
        LongAdder count = counts.get(breaker.name());
        if (count == null) {
            count = counts.computeIfAbsent(breaker.name(), name -> new LongAdder());
        }
        count.increment();
    }

    /** Calls rejected by the breaker named {@code breaker} since it was counted or {@link #reset}. */
    public long rejected(String breaker) {
        LongAdder count = counts.get(breaker);
        return count == null ? 0 : count.sum();
    }

    /** Starts the count of {@code breaker} again from zero (e.g. when an operator resets it). */
    public void reset(String breaker) {
        counts.remove(breaker);
    }
}
