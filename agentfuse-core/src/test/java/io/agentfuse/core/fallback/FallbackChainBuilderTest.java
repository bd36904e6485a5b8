package io.agentfuse.core.fallback;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A chain that could not run as written is refused when it is built or first run, not half-way through a call. */
class FallbackChainBuilderTest {

    private final SeedFallbacks seed = new SeedFallbacks();

    @Test
    void aStepAfterGiveUpIsRejectedWhenBuilding() {
        FallbackChain.Builder<String, String> builder = FallbackChain.<String, String>builder()
                .step("claude-haiku-4", seed.guard(seed.haikuBreaker), prompt -> "answer")
                .giveUp();

        assertThatThrownBy(() -> builder.step("gpt-4o-mini", seed.guard(seed.miniBreaker), prompt -> "answer"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("step 'gpt-4o-mini' comes after giveUp(): it could never run");
    }

    @Test
    void aChainNeedsAtLeastOneStep() {
        assertThatThrownBy(() -> FallbackChain.<String, String>builder().giveUp().build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anAsynchronousStepCannotRunSynchronously() {
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .asyncStep("claude-haiku-4", seed.guard(seed.haikuBreaker), prompt -> CompletableFuture.completedFuture("answer"))
                .build();

        assertThatThrownBy(() -> chain.execute("hello"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("executeAsync");
        assertThat(chain.stepNames()).containsExactly("claude-haiku-4");
    }
}
