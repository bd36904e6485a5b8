package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitState;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** A listener that remembers every event it receives; safe to share between threads. */
public final class RecordingListener implements CircuitBreakerListener {

    private final Queue<StateTransition> transitions = new ConcurrentLinkedQueue<>();
    private final Queue<Outcome> recorded = new ConcurrentLinkedQueue<>();
    private final Queue<Long> durations = new ConcurrentLinkedQueue<>();
    private final AtomicInteger rejected = new AtomicInteger();

    @Override
    public void onStateTransition(StateTransition event) {
        transitions.add(event);
    }

    @Override
    public void onCallRejected(CircuitBreaker breaker) {
        rejected.incrementAndGet();
    }

    @Override
    public void onCallRecorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
        recorded.add(outcome);
        durations.add(durationNanos);
    }

    public List<StateTransition> transitions() {
        return List.copyOf(transitions);
    }

    public List<StateTransition> transitionsTo(CircuitState state) {
        return transitions.stream().filter(event -> event.to() == state).toList();
    }

    public List<Outcome> recorded() {
        return List.copyOf(recorded);
    }

    public List<Long> durations() {
        return List.copyOf(durations);
    }

    public int rejected() {
        return rejected.get();
    }
}
