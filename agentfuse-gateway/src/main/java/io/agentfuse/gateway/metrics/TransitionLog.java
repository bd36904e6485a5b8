package io.agentfuse.gateway.metrics;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * One log line per breaker transition (docs/design.md §9), with the breaker, the two states and the reason
 * as key-value pairs too (fields of their own in JSON logs): a breaker that opens is a warning,
 * every other change is information. Thread-safe.
 *
 * <pre>
 * WARN  TransitionLog: breaker model:claude-sonnet-4 CLOSED -> OPEN: consecutive5xx: 3 in a row (threshold 3)
 * </pre>
 */
public final class TransitionLog implements CircuitBreakerListener {

    private static final Logger LOG = LoggerFactory.getLogger(TransitionLog.class);

    @Override
    public void onStateTransition(StateTransition event) {
        Level level = event.to() == CircuitState.OPEN || event.to() == CircuitState.FORCED_OPEN ? Level.WARN : Level.INFO;
        LOG.atLevel(level)
                .addKeyValue("breaker", event.breaker())
                .addKeyValue("from", event.from().name())
                .addKeyValue("to", event.to().name())
                .addKeyValue("reason", event.reason())
                .log("breaker {} {} -> {}: {}", event.breaker(), event.from(), event.to(), event.reason());
    }
}
