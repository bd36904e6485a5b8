package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The seed's {@code tools:} block (方案二) gives a Java agent one guard per tool, without the
 * gateway: {@code runtime.toolGuard("web_search").execute(...)} retries twice, opens after 5
 * failures in a row for 5 minutes; {@code browser} opens after 3 for 10 minutes. Time is a manual clock.
 */
class SeedToolGuardsTest {

    private final ManualClock clock = new ManualClock();
    private final AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.parse(
            SeedSnippetsTest.resource("seed-tools.yaml"), "seed-tools.yaml", Map.of())).manualClock(clock).build();
    private final AtomicInteger calls = new AtomicInteger();

    @Test
    void webSearchRetriesTwiceAndOpensOnTheFifthFailureInARow() {
        Guard webSearch = runtime.toolGuard("web_search");

        // one call: 3 attempts (2 retries); a second call: attempts 4 and 5, the 5th trips it
        assertThatThrownBy(() -> webSearch.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);
        assertThat(calls).hasValue(3);
        assertThatThrownBy(() -> webSearch.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);

        assertThat(calls).hasValue(5);
        assertThat(webSearch.circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
        assertThatThrownBy(() -> webSearch.execute(this::unavailable)).isInstanceOf(CircuitOpenException.class);
        assertThat(calls).hasValue(5);
    }

    @Test
    void webSearchLetsOneProbeThroughAfterFiveMinutes() {
        Guard webSearch = runtime.toolGuard("web_search");
        tripWebSearch(webSearch);

        clock.advance(Duration.ofMinutes(5));

        assertThat(webSearch.execute(() -> "results")).isEqualTo("results");
        assertThat(webSearch.circuitBreaker().state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void browserOpensAfterThreeFailuresAndCoolsDownForTenMinutes() {
        Guard browser = runtime.toolGuard("browser");
        // browser keeps a tool's default 2 retries: one call's three failed attempts trip it
        assertThatThrownBy(() -> browser.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);
        assertThat(calls).hasValue(3);
        assertThat(browser.circuitBreaker().state()).isEqualTo(CircuitState.OPEN);

        clock.advance(Duration.ofMinutes(5));
        assertThatThrownBy(() -> browser.execute(() -> "page")).isInstanceOf(CircuitOpenException.class);

        clock.advance(Duration.ofMinutes(5));
        assertThat(browser.execute(() -> "page")).isEqualTo("page");
    }

    @Test
    void theToolsOwnRetriesAreExplicitAndTheDefaultsAreNot() {
        assertThat(runtime.config().tool("web_search").explicitRetries()).isTrue();
        assertThat(runtime.config().tool("browser").explicitRetries()).isFalse();
    }

    private void tripWebSearch(Guard webSearch) {
        assertThatThrownBy(() -> webSearch.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);
        assertThatThrownBy(() -> webSearch.execute(this::unavailable)).isInstanceOf(HttpStatusException.class);
        assertThat(webSearch.circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
    }

    private String unavailable() {
        calls.incrementAndGet();
        throw new HttpStatusException(503);
    }
}
