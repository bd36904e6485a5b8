package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.Race;
import io.agentfuse.core.RecordingListener;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CircuitBreakerRegistryTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();

    private static final CircuitBreakerConfig DEFAULT = resettingAfter(1);
    private static final CircuitBreakerConfig ANY_TOOL = resettingAfter(2);
    private static final CircuitBreakerConfig SEARCH_TOOLS = resettingAfter(3);
    private static final CircuitBreakerConfig WEB_SEARCH = resettingAfter(4);

    private final ManualClock clock = new ManualClock();
    private final CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder()
            .clock(clock)
            .defaultConfig(DEFAULT)
            .template("tool:*", ANY_TOOL)
            .template("tool:search/web_search", WEB_SEARCH)
            .template("tool:search/*", SEARCH_TOOLS)
            .idleTimeout(Duration.ofHours(1))
            .build();

    /** Configs that differ only in their reset timeout, so each template is recognisable. */
    private static CircuitBreakerConfig resettingAfter(int minutes) {
        return CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1))
                .resetTimeout(Duration.ofMinutes(minutes))
                .build();
    }

    private static void trip(CircuitBreaker breaker) {
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void anExactTemplateBeatsAnyPrefix() {
        assertThat(registry.configFor("tool:search/web_search")).isSameAs(WEB_SEARCH);
    }

    @Test
    void theLongestMatchingPrefixWins() {
        assertThat(registry.configFor("tool:search/images")).isSameAs(SEARCH_TOOLS);
        assertThat(registry.configFor("tool:db/query")).isSameAs(ANY_TOOL);
    }

    @Test
    void namesMatchingNoTemplateGetTheDefault() {
        assertThat(registry.configFor("model:claude-sonnet-4")).isSameAs(DEFAULT);
        assertThat(registry.configFor("tool")).as("a prefix matches only its whole text").isSameAs(DEFAULT);
    }

    @Test
    void createsBreakersFromTheirTemplateOnTheRegistryClock() {
        CircuitBreaker breaker = registry.breaker("tool:search/images");

        assertThat(breaker.name()).isEqualTo("tool:search/images");
        assertThat(breaker.config()).isSameAs(SEARCH_TOOLS);
        assertThat(breaker.clock()).isSameAs(clock);
    }

    @Test
    void repeatedLookupsReturnTheSameBreaker() {
        CircuitBreaker first = registry.breaker("tool:db/query");

        assertThat(registry.breaker("tool:db/query")).isSameAs(first);
        assertThat(registry.find("tool:db/query")).containsSame(first);
    }

    @Test
    void concurrentFirstLookupsCreateOneBreaker() throws Exception {
        List<CircuitBreaker> seen = Race.run(16, () -> registry.breaker("tool:db/query"));

        assertThat(seen).allSatisfy(breaker -> assertThat(breaker).isSameAs(seen.get(0)));
        assertThat(registry.all()).hasSize(1);
    }

    @Test
    void evictIdleDropsOnlyClosedBreakersIdleForTheIdleTimeout() {
        CircuitBreaker idle = registry.breaker("tool:db/query");
        CircuitBreaker open = registry.breaker("tool:db/write");
        trip(open);
        registry.breaker("tool:db/schema");
        clock.advance(Duration.ofMinutes(30));
        CircuitBreaker recentlyUsed = registry.breaker("tool:db/schema");
        clock.advance(Duration.ofMinutes(30));

        int evicted = registry.evictIdle();

        assertThat(evicted).isEqualTo(1);
        assertThat(registry.find("tool:db/query")).isEmpty();
        assertThat(registry.all()).containsExactly(recentlyUsed, open);
        assertThat(registry.breaker("tool:db/query")).as("a fresh breaker after eviction").isNotSameAs(idle);
    }

    @Test
    void evictIdleKeepsBreakersUsedWithinTheIdleTimeout() {
        registry.breaker("tool:db/query");
        clock.advance(Duration.ofHours(1).minusMillis(1));

        assertThat(registry.evictIdle()).isZero();
        assertThat(registry.find("tool:db/query")).isPresent();
    }

    @Test
    void replaceWithAnEqualConfigKeepsTheBreakerAndItsState() {
        CircuitBreaker breaker = registry.breaker("tool:db/query");
        trip(breaker);

        CircuitBreaker replaced = registry.replace("tool:db/query", resettingAfter(2));

        assertThat(replaced).isSameAs(breaker);
        assertThat(replaced.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void replaceWithAnotherConfigInstallsAFreshBreaker() {
        CircuitBreaker breaker = registry.breaker("tool:db/query");
        trip(breaker);

        CircuitBreaker replaced = registry.replace("tool:db/query", resettingAfter(9));

        assertThat(replaced).isNotSameAs(breaker);
        assertThat(replaced.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(replaced.config().resetTimeout()).isEqualTo(Duration.ofMinutes(9));
        assertThat(registry.breaker("tool:db/query")).isSameAs(replaced);
    }

    @Test
    void registryListenersHearExistingAndFutureBreakers() {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker existing = registry.breaker("tool:db/query");

        registry.addListener(listener);
        CircuitBreaker future = registry.breaker("model:gpt-4o");
        trip(existing);
        trip(future);

        assertThat(listener.transitionsTo(CircuitState.OPEN))
                .extracting(event -> event.breaker())
                .containsExactly("tool:db/query", "model:gpt-4o");
    }

    @Test
    void removeDropsTheBreaker() {
        registry.breaker("tool:db/query");

        assertThat(registry.remove("tool:db/query")).isTrue();
        assertThat(registry.remove("tool:db/query")).isFalse();
        assertThat(registry.all()).isEmpty();
    }
}
