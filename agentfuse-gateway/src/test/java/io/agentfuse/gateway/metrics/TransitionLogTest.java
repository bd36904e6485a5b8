package io.agentfuse.gateway.metrics;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.StateTransition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transition's breaker name (a tool name any caller may send) and reason (another instance's,
 * read from Redis) cannot write a log line of their own (regression: a newline in either forged a
 * {@code TransitionLog} line), nor a line of any length.
 */
class TransitionLogTest {

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(TransitionLog.class);

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void stop() {
        logger.detachAppender(lines);
    }

    private String logged(String breaker, String reason) {
        new TransitionLog().onStateTransition(new StateTransition(breaker, CircuitState.CLOSED, CircuitState.OPEN, reason,
                Map.of(), 0L));
        assertThat(lines.list).hasSize(1);
        return lines.list.get(0).getFormattedMessage();
    }

    @Test
    void aNewlineInAToolNameIsWrittenEscaped() {
        String line = logged("tool:db/query\nWARN  TransitionLog: breaker model:gpt-4o CLOSED -> OPEN: forged", "consecutive5xx");

        assertThat(line).doesNotContain("\n").contains("tool:db/query\\nWARN  TransitionLog");
    }

    @Test
    void controlCharactersInAReasonFromTheFleetAreWrittenEscaped() {
        String line = logged("model:gpt-4o", "fleet: tripped\r\nINFO  forged line\u001b[2J\u2028");

        assertThat(line).doesNotContain("\n").doesNotContain("\r").doesNotContain("\u001b").doesNotContain("\u2028")
                .endsWith("fleet: tripped\\r\\nINFO  forged line\\u001b[2J\\u2028");
    }

    @Test
    void aLongReasonIsCut() {
        String line = logged("model:gpt-4o", "x".repeat(1_000_000));

        assertThat(line.length()).isLessThan(TransitionLog.MAX_TEXT + 100);
        assertThat(lines.list.get(0).getKeyValuePairs()).anySatisfy(pair -> {
            assertThat(pair.key).isEqualTo("reason");
            assertThat(pair.value.toString()).hasSize(TransitionLog.MAX_TEXT + 1).endsWith("…");
        });
    }

    @Test
    void anOrdinaryTransitionIsWrittenAsItIs() {
        assertThat(logged("model:claude-sonnet-4", "consecutive5xx: 3 in a row (threshold 3)"))
                .isEqualTo("breaker model:claude-sonnet-4 CLOSED -> OPEN: consecutive5xx: 3 in a row (threshold 3)");
    }
}
