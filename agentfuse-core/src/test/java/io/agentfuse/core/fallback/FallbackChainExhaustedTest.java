package io.agentfuse.core.fallback;

import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.timeout.CallTimeoutException;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.agentfuse.core.fallback.SeedFallbacks.trip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The seed's fallbacks, run synchronously, when no step answers: the error lists each step and why, and
 * says whether every breaker was open (with the soonest reopening) or every step called timed out.
 */
class FallbackChainExhaustedTest {

    private final SeedFallbacks seed = new SeedFallbacks();

    @Test
    void whenEveryStepFailsTheErrorListsEachStepAndWhy() {
        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> seed.chain(new HttpStatusException(500), new HttpStatusException(529), new HttpStatusException(502))
                        .execute("hello"));

        assertThat(exhausted.steps()).extracting(StepFailure::step)
                .containsExactly("claude-sonnet-4", "claude-haiku-4", "gpt-4o-mini");
        assertThat(exhausted.steps()).extracting(StepFailure::outcome)
                .containsExactly(Outcome.SERVER_ERROR, Outcome.OVERLOADED, Outcome.SERVER_ERROR);
        assertThat(exhausted).hasMessage("all fallbacks failed: "
                + "claude-sonnet-4 failed (SERVER_ERROR: HTTP 500); "
                + "claude-haiku-4 failed (OVERLOADED: HTTP 529); "
                + "gpt-4o-mini failed (SERVER_ERROR: HTTP 502)");
        assertThat(exhausted.allCircuitsOpen()).isFalse();
        assertThat(exhausted.allCalledTimedOut()).isFalse();
        assertThat(exhausted.getCause()).isSameAs(exhausted.steps().get(2).cause());
    }

    @Test
    void whenEveryBreakerIsOpenNothingIsCalledAndTheSoonestReopeningIsKnown() {
        trip(seed.sonnetBreaker);
        trip(seed.haikuBreaker);
        trip(seed.miniBreaker);
        seed.clock.advance(Duration.ofSeconds(10));

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> seed.chain(null, null, null).execute("hello"));

        assertThat(seed.sonnetCalls.get() + seed.haikuCalls.get() + seed.miniCalls.get()).isZero();
        assertThat(exhausted.allCircuitsOpen()).isTrue();
        assertThat(exhausted.allCalledTimedOut()).isFalse();
        assertThat(exhausted.soonestRetryAfterNanos()).isEqualTo(Duration.ofSeconds(50).toNanos());
    }

    @Test
    void whenEveryStepThatWasCalledTimedOutTheChainSaysSo() {
        trip(seed.sonnetBreaker);
        CallTimeoutException timeout = new CallTimeoutException(Duration.ofSeconds(60));

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> seed.chain(null, timeout, timeout).execute("hello"));

        assertThat(exhausted.allCalledTimedOut()).isTrue();
        assertThat(exhausted.allCircuitsOpen()).isFalse();
        assertThat(exhausted.soonestRetryAfterNanos()).isEqualTo(Duration.ofMinutes(5).toNanos());
    }

    @Test
    void aTimeoutAmongOtherFailuresIsNotAllTimedOut() {
        CallTimeoutException timeout = new CallTimeoutException(Duration.ofSeconds(60));

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> seed.chain(timeout, new HttpStatusException(500), timeout).execute("hello"));

        assertThat(exhausted.allCalledTimedOut()).isFalse();
        assertThat(exhausted.soonestRetryAfterNanos()).isEqualTo(-1);
    }

    @Test
    void aStepTimedOutByItsGuardCountsAsTimedOut() {
        Guard slow = Guard.builder("slow").timeout(Duration.ofSeconds(30)).manualClock(seed.clock).build();
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("slow", slow, prompt -> {
                    seed.clock.advance(Duration.ofSeconds(31));
                    return "late";
                })
                .build();

        FallbackExhaustedException exhausted = catchThrowableOfType(FallbackExhaustedException.class,
                () -> chain.execute("hello"));

        assertThat(exhausted.allCalledTimedOut()).isTrue();
        assertThat(exhausted.steps().get(0).cause()).isInstanceOf(CallTimeoutException.class);
    }
}
