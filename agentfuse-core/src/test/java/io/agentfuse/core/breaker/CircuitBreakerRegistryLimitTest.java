package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.Race;
import io.agentfuse.core.event.CircuitBreakerListener;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link CircuitBreakerRegistry.Builder#limit}: breakers made on demand for names a caller chose
 * are bounded; idle ones make room, open or busy ones never do, and declared ones do not count.
 */
class CircuitBreakerRegistryLimitTest {

    private static final CircuitBreakerConfig ONE_ERROR = CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(5)).build();

    private final ManualClock clock = new ManualClock();
    private final List<String> removed = new ArrayList<>();
    private final CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder()
            .clock(clock)
            .defaultConfig(ONE_ERROR)
            .limit("tool:*", 3)
            .idleTimeout(Duration.ofHours(1))
            .build();

    {
        registry.addListener(new CircuitBreakerListener() {
            @Override
            public void onRemoved(CircuitBreaker breaker) {
                removed.add(breaker.name());
            }
        });
    }

    @Test
    void givenAFullLimitWhenANewNameComesThenItGetsNoBreakerAndTheOthersStay() {
        List<CircuitBreaker> first = List.of(registry.breaker("tool:a"), registry.breaker("tool:b"), registry.breaker("tool:c"));

        assertThat(registry.tryBreaker("tool:d", ONE_ERROR)).isEmpty();
        assertThatThrownBy(() -> registry.breaker("tool:d"))
                .isInstanceOf(BreakerLimitException.class)
                .hasMessage("breaker tool:d is not made: 3 breakers named tool:* are in use already (the limit), "
                        + "and none has been idle long enough to be dropped");
        assertThat(registry.all()).containsExactlyElementsOf(first);
        assertThat(registry.breaker("tool:a")).as("a known name is still served").isSameAs(first.get(0));
        assertThat(registry.breaker("model:gpt-4o")).as("names outside the limit are not bounded").isNotNull();
    }

    @Test
    void givenAFullLimitWhenOneBreakerIsIdleThenItMakesRoomAndListenersAreToldOfIt() {
        registry.breaker("tool:a");
        clock.advance(Duration.ofMinutes(30));
        registry.breaker("tool:b");
        registry.breaker("tool:c");
        clock.advance(Duration.ofMinutes(30));

        CircuitBreaker fresh = registry.breaker("tool:d");

        assertThat(registry.all()).extracting(CircuitBreaker::name).containsExactly("tool:b", "tool:c", "tool:d");
        assertThat(removed).containsExactly("tool:a");
        assertThat(fresh.name()).isEqualTo("tool:d");
    }

    @Test
    void anOpenBreakerIsNeverDroppedToMakeRoom() {
        CircuitBreaker open = registry.breaker("tool:a");
        Unstamped.outcome(open, Outcome.SERVER_ERROR, 1);
        registry.breaker("tool:b");
        registry.breaker("tool:c");
        clock.advance(Duration.ofMinutes(61));
        registry.breaker("tool:b");
        registry.breaker("tool:c");

        assertThat(registry.tryBreaker("tool:d", ONE_ERROR)).isEmpty();
        assertThat(registry.find("tool:a")).containsSame(open);
    }

    @Test
    void declaredBreakersDoNotCountAgainstTheLimit() {
        registry.replace("tool:declared-1", ONE_ERROR);
        registry.replace("tool:declared-2", ONE_ERROR);
        registry.replace("tool:declared-3", ONE_ERROR);

        assertThat(List.of("tool:a", "tool:b", "tool:c")).allSatisfy(name ->
                assertThat(registry.tryBreaker(name, ONE_ERROR)).isPresent());
        assertThat(registry.tryBreaker("tool:d", ONE_ERROR)).isEmpty();
    }

    @Test
    void aRemovedBreakerFreesItsPlaceAndIsNoLongerWatched() {
        AtomicInteger recorded = new AtomicInteger();
        registry.addListener(new CircuitBreakerListener() {
            @Override
            public void onCallRecorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
                recorded.incrementAndGet();
            }
        });
        CircuitBreaker gone = registry.breaker("tool:a");
        registry.breaker("tool:b");
        registry.breaker("tool:c");

        registry.remove("tool:a");
        Unstamped.outcome(gone, Outcome.SUCCESS, 1); // a call that was running when it went

        assertThat(removed).containsExactly("tool:a");
        assertThat(recorded).as("the registry's listeners let go of a removed breaker").hasValue(0);
        assertThat(registry.tryBreaker("tool:d", ONE_ERROR)).isPresent();
    }

    @Test
    void concurrentNewNamesNeverExceedTheLimit() throws Exception {
        AtomicInteger next = new AtomicInteger();

        Race.run(16, () -> registry.tryBreaker("tool:" + next.incrementAndGet(), ONE_ERROR));

        assertThat(registry.all()).hasSize(3);
    }
}
