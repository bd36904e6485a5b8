package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The guards the MCP proxy asks for: a server-wide {@code retries} applies to idempotent tools
 * only; a tool's own {@code retries} applies whatever the tool says; both forms share the
 * tool's breaker; the server's transport breaker is {@code mcp:<server>}.
 */
class McpToolRetriesTest {

    private static final String CONFIG = """
            retry: { maxAttempts: 1, initialDelay: 1s }
            mcpServers:
              db:
                url: http://127.0.0.1:9000/mcp
                retries: 2
                annotateTools: true
                circuitBreaker: { failureThreshold: 3 }
            tools:
              db/insert_row: { retries: 1 }
            """;

    private final ManualClock clock = new ManualClock();
    private final AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.parse(CONFIG, "agentfuse.yaml", Map.of()))
            .manualClock(clock).build();
    private final AtomicInteger calls = new AtomicInteger();

    @Test
    void aToolNotMarkedIdempotentMakesOneAttempt() {
        Guard guard = runtime.mcpToolGuard("db", "delete_row", false);

        assertThatThrownBy(() -> guard.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);

        assertThat(calls).hasValue(1);
    }

    @Test
    void anIdempotentToolGetsTheServersRetries() {
        Guard guard = runtime.mcpToolGuard("db", "query", true);

        assertThatThrownBy(() -> guard.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);

        assertThat(calls).hasValue(3);
    }

    @Test
    void aToolWhoseEntryNamesRetriesIsRetriedEvenIfNotIdempotent() {
        Guard guard = runtime.mcpToolGuard("db", "insert_row", false);

        assertThatThrownBy(() -> guard.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);

        assertThat(calls).hasValue(2);
    }

    @Test
    void bothFormsOfAToolsGuardShareItsBreaker() {
        CircuitBreaker once = runtime.mcpToolGuard("db", "query", false).circuitBreaker();
        CircuitBreaker retrying = runtime.mcpToolGuard("db", "query", true).circuitBreaker();

        assertThat(once).isSameAs(retrying);
        assertThat(once.name()).isEqualTo("tool:db/query");
    }

    @Test
    void theServerHasATransportBreakerNamedAfterIt() {
        CircuitBreaker server = runtime.mcpServerBreaker("db");

        assertThat(server.name()).isEqualTo("mcp:db");
        assertThat(runtime.registry().find("mcp:db")).containsSame(server);
        assertThat(runtime.mcpServerBreaker("db")).isSameAs(server);
    }

    @Test
    void annotateToolsIsReadFromTheServerEntry() {
        assertThat(runtime.config().mcpServers().get("db").annotateTools()).isTrue();
    }

    @Test
    void annotateToolsMustBeABoolean() {
        assertThatThrownBy(() -> ConfigLoader.parse(CONFIG.replace("annotateTools: true", "annotateTools: often"),
                "agentfuse.yaml", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mcpServers.db.annotateTools");
    }

    private String unavailable() {
        calls.incrementAndGet();
        throw new HttpStatusException(503);
    }
}
