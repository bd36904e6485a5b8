package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import io.agentfuse.core.breaker.Trigger.Window;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each trigger against a plain reference model of its definition: for any sequence of outcomes,
 * the breaker opens on exactly the call where the definition first holds, and not before.
 */
class TriggerModelPropertyTest {

    private static final long FAST = 1_000_000L;

    /** The index of the call after which {@code breaker} opened, or -1 if it stayed closed. */
    private static int openedAt(CircuitBreaker breaker, List<Outcome> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            Unstamped.outcome(breaker, outcomes.get(i), FAST);
            if (breaker.state() == CircuitState.OPEN) {
                return i;
            }
        }
        return -1;
    }

    private static CircuitBreaker breakerWith(Trigger trigger) {
        return CircuitBreaker.of("model", CircuitBreakerConfig.builder().trigger(trigger).build(), new ManualClock());
    }

    @Property
    void consecutiveErrorsOpenAtTheFirstRunOfThresholdFailures(
            @ForAll @IntRange(min = 1, max = 6) int threshold,
            @ForAll @Size(max = 60) List<Outcome> outcomes) {
        int expected = -1;
        int run = 0;
        for (int i = 0; i < outcomes.size() && expected < 0; i++) {
            Outcome outcome = outcomes.get(i);
            if (outcome == Outcome.CLIENT_ERROR) {
                continue;
            }
            run = outcome.isFailure() ? run + 1 : 0;
            if (run >= threshold) {
                expected = i;
            }
        }

        assertThat(openedAt(breakerWith(Trigger.consecutiveErrors(threshold)), outcomes)).isEqualTo(expected);
    }

    @Property
    void consecutive429OpenAtTheFirstRunOfThresholdRateLimits(
            @ForAll @IntRange(min = 1, max = 4) int threshold,
            @ForAll @Size(max = 60) List<Outcome> outcomes) {
        int expected = -1;
        int run = 0;
        for (int i = 0; i < outcomes.size() && expected < 0; i++) {
            Outcome outcome = outcomes.get(i);
            if (outcome == Outcome.CLIENT_ERROR) {
                continue;
            }
            run = outcome.isRateLimit() ? run + 1 : 0;
            if (run >= threshold) {
                expected = i;
            }
        }

        assertThat(openedAt(breakerWith(Trigger.consecutive429(threshold)), outcomes)).isEqualTo(expected);
    }

    @Property
    void failureRateOpensOnTheFirstCallAfterWhichTheWindowExceedsTheThreshold(
            @ForAll @IntRange(min = 1, max = 25) int size,
            @ForAll @IntRange(min = 1, max = 25) int minCallsWish,
            @ForAll @IntRange(min = 0, max = 99) int percent,
            @ForAll @Size(max = 80) List<Boolean> failures) {
        int minCalls = Math.min(minCallsWish, size);
        double threshold = percent / 100.0;
        Deque<Boolean> window = new ArrayDeque<>();
        int expected = -1;
        for (int i = 0; i < failures.size() && expected < 0; i++) {
            window.addLast(failures.get(i));
            if (window.size() > size) {
                window.removeFirst();
            }
            long hits = window.stream().filter(Boolean::booleanValue).count();
            if (window.size() >= minCalls && hits > threshold * window.size()) {
                expected = i;
            }
        }
        List<Outcome> outcomes = failures.stream().map(failed -> failed ? Outcome.SERVER_ERROR : Outcome.SUCCESS).toList();

        CircuitBreaker breaker = breakerWith(Trigger.failureRate(Window.ofCalls(size), minCalls, threshold));

        assertThat(openedAt(breaker, outcomes)).isEqualTo(expected);
    }
}
