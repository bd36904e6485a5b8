package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EstimatingTokenCounterTest {

    private final TokenCounter characters = String::length;

    @Test
    void scalesTheBaseCountAndRoundsUp() {
        EstimatingTokenCounter estimate = new EstimatingTokenCounter(characters, 1.15);

        assertThat(estimate.countText("x".repeat(10))).isEqualTo(12);
        assertThat(estimate.countText("x".repeat(20))).isEqualTo(23);
    }

    @Test
    void neverCountsBelowTheBase() {
        EstimatingTokenCounter estimate = EstimatingTokenCounter.standard();
        String text = "The quick brown fox jumps over the lazy dog.";

        assertThat(estimate.countText(text)).isGreaterThanOrEqualTo(TiktokenCounter.cl100k().countText(text));
        assertThat(estimate.countText("")).isZero();
    }

    @Test
    void rejectsAMarginBelowOne() {
        assertThatThrownBy(() -> new EstimatingTokenCounter(characters, 0.9))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("margin must be in [1, 10], but was 0.9");
    }
}
