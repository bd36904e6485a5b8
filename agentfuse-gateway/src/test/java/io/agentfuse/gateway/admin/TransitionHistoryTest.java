package io.agentfuse.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.StateTransition;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ring of recent transitions the dashboard shows on load: newest first, bounded. */
class TransitionHistoryTest {

    private final TransitionHistory history = new TransitionHistory();

    @Test
    void keepsTheTransitionsNewestFirst() {
        history.onStateTransition(transition("model:a", 1));
        history.onStateTransition(transition("model:b", 2));

        assertThat(history.recent()).extracting(StateTransition::breaker).containsExactly("model:b", "model:a");
    }

    @Test
    void keepsOnlyTheLastTwoHundred() {
        for (int i = 0; i < TransitionHistory.CAPACITY + 50; i++) {
            history.onStateTransition(transition("model:m" + i, i));
        }

        assertThat(history.recent()).hasSize(TransitionHistory.CAPACITY);
        assertThat(history.recent().get(0).breaker()).isEqualTo("model:m249");
        assertThat(history.recent().get(TransitionHistory.CAPACITY - 1).breaker()).isEqualTo("model:m50");
    }

    private static StateTransition transition(String breaker, long epochMillis) {
        return new StateTransition(breaker, CircuitState.CLOSED, CircuitState.OPEN, "consecutive5xx: 3 in a row", Map.of(),
                epochMillis);
    }
}
