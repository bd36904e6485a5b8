package io.agentfuse.core.scenario;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.Trigger;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The seed's example "MCP server outage": an MCP server in front of a database suddenly answers
 * HTTP 500. Calls 1–2 fail normally; the 3rd trips the breaker, and later calls fail fast with
 * "database temporarily unavailable" without reaching the server. Five minutes later one probe
 * goes through: if it succeeds the tool is back to normal, if it fails the breaker stays open
 * for another five minutes.
 */
class McpServerOutageScenarioTest {

    private static final String UNAVAILABLE = "database temporarily unavailable";

    private final ManualClock clock = new ManualClock();
    private final DatabaseTool database = new DatabaseTool();
    private final CircuitBreaker breaker = CircuitBreaker.of("tool:db/query", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(3))      // the seed's failureThreshold: 3
            .resetTimeout(Duration.ofMinutes(5))
            .halfOpenRequests(1)
            .build(), clock);

    /** What the agent calls: the tool behind the breaker, or the fast answer while it is open. */
    private String query(String sql) {
        return breaker.execute(() -> database.call(sql), open -> UNAVAILABLE);
    }

    private void theFirstThreeCallsFailAndTripTheBreaker() {
        database.failing = true;
        for (int call = 1; call <= 2; call++) {
            assertThatThrownBy(() -> query("select 1")).isInstanceOf(HttpStatusException.class);
            assertThat(breaker.state()).as("after call %d", call).isEqualTo(CircuitState.CLOSED);
        }
        assertThatThrownBy(() -> query("select 1")).isInstanceOf(HttpStatusException.class);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("consecutiveErrors: 3 in a row (threshold 3)");
        assertThat(database.invocations).isEqualTo(3);
    }

    @Test
    void aSuccessfulProbeFiveMinutesLaterRestoresTheTool() {
        theFirstThreeCallsFailAndTripTheBreaker();

        // Fast failures: the agent gets an answer at once and the server is left alone.
        for (int call = 0; call < 10; call++) {
            assertThat(query("select 1")).isEqualTo(UNAVAILABLE);
        }
        assertThat(database.invocations).isEqualTo(3);

        // The database recovers after two minutes, but the breaker waits out its five.
        clock.advance(Duration.ofMinutes(2));
        database.failing = false;
        clock.advance(Duration.ofMinutes(3).minusMillis(1));
        assertThat(query("select 1")).isEqualTo(UNAVAILABLE);
        assertThat(database.invocations).isEqualTo(3);

        // At five minutes one probe goes through, succeeds, and the breaker closes.
        clock.advance(Duration.ofMillis(1));
        assertThat(query("select 1")).isEqualTo("1 row");
        assertThat(database.invocations).isEqualTo(4);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        assertThat(query("select 2")).isEqualTo("1 row");
        assertThat(database.invocations).isEqualTo(5);
    }

    @Test
    void aFailedProbeKeepsTheBreakerOpenForAnotherFiveMinutes() {
        theFirstThreeCallsFailAndTripTheBreaker();

        // At five minutes the probe goes through, but the database is still down.
        clock.advance(Duration.ofMinutes(5));
        assertThatThrownBy(() -> query("select 1")).isInstanceOf(HttpStatusException.class);
        assertThat(database.invocations).isEqualTo(4);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);

        // 4:59 later it still fails fast without calling.
        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        assertThat(query("select 1")).isEqualTo(UNAVAILABLE);
        assertThat(database.invocations).isEqualTo(4);

        // At 5:00 the next probe goes through.
        database.failing = false;
        clock.advance(Duration.ofSeconds(1));
        assertThat(query("select 1")).isEqualTo("1 row");
        assertThat(database.invocations).isEqualTo(5);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    /** A stand-in for the MCP server's database tool: counts calls, answers 500 while failing. */
    private static final class DatabaseTool {
        boolean failing;
        int invocations;

        String call(String sql) {
            invocations++;
            if (failing) {
                throw HttpStatusException.builder(500).body("{\"error\":\"connection pool exhausted\"}").build();
            }
            return "1 row";
        }
    }
}
