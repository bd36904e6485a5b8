package io.agentfuse.core.fallback;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.breaker.Unstamped;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's {@code fallbacks: [claude-haiku-4, gpt-4o-mini, null]} behind {@code claude-sonnet-4}: a
 * breaker and a call counter for each model, on one manual clock, shared by the synchronous chain's tests.
 */
final class SeedFallbacks {

    final ManualClock clock = new ManualClock();
    final CircuitBreaker sonnetBreaker = breaker("model:claude-sonnet-4", Duration.ofMinutes(5));
    final CircuitBreaker haikuBreaker = breaker("model:claude-haiku-4", Duration.ofMinutes(2));
    final CircuitBreaker miniBreaker = breaker("model:gpt-4o-mini", Duration.ofMinutes(1));
    final AtomicInteger sonnetCalls = new AtomicInteger();
    final AtomicInteger haikuCalls = new AtomicInteger();
    final AtomicInteger miniCalls = new AtomicInteger();

    private CircuitBreaker breaker(String name, Duration resetTimeout) {
        return CircuitBreaker.of(name, CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(3)).resetTimeout(resetTimeout).build(), clock);
    }

    Guard guard(CircuitBreaker breaker) {
        return Guard.builder(breaker.name()).circuitBreaker(breaker).manualClock(clock).build();
    }

    static void trip(CircuitBreaker breaker) {
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(breaker, Outcome.SERVER_ERROR, 0);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    /** sonnet, then haiku, then gpt-4o-mini, then give up; each step's behaviour given by the test. */
    FallbackChain<String, String> chain(RuntimeException sonnetError, RuntimeException haikuError,
                                                RuntimeException miniError) {
        return FallbackChain.<String, String>builder()
                .step("claude-sonnet-4", guard(sonnetBreaker), prompt -> answer(sonnetCalls, sonnetError, "sonnet"))
                .step("claude-haiku-4", guard(haikuBreaker), prompt -> answer(haikuCalls, haikuError, "haiku"))
                .step("gpt-4o-mini", guard(miniBreaker), prompt -> answer(miniCalls, miniError, "mini"))
                .giveUp()
                .build();
    }

    static String answer(AtomicInteger calls, RuntimeException error, String model) {
        calls.incrementAndGet();
        if (error != null) {
            throw error;
        }
        return "answer from " + model;
    }
}
