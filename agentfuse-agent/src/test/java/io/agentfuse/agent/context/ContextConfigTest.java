package io.agentfuse.agent.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContextConfigTest {

    @Test
    void defaultsAreTheSeedLadder() {
        assertThat(ContextConfig.defaults()).isEqualTo(new ContextConfig(0.70, 0.80, 0.92, 0.95, 0, 6));
    }

    @Test
    void acceptsARejectThresholdOfTheWholeWindow() {
        assertThat(ContextConfig.builder().rejectAt(1.0).build().rejectAt()).isEqualTo(1.0);
    }

    @Test
    void rejectsAThresholdOfZero() {
        assertThatThrownBy(() -> ContextConfig.builder().warnAt(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("warnAt must be in (0, 1], but was 0.0");
    }

    @Test
    void rejectsAThresholdAboveTheWholeWindow() {
        assertThatThrownBy(() -> ContextConfig.builder().rejectAt(1.2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rejectAt must be in (0, 1], but was 1.2");
    }

    @Test
    void rejectsAPercentageWrittenAsAWholeNumber() {
        assertThatThrownBy(() -> ContextConfig.builder().snipAt(92))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("snipAt must be in (0, 1], but was 92.0");
    }

    @Test
    void rejectsAThresholdThatIsNotANumber() {
        assertThatThrownBy(() -> ContextConfig.builder().autoCompactAt(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("autoCompactAt must be in (0, 1], but was NaN");
    }

    @Test
    void rejectsThresholdsThatDoNotIncrease() {
        assertThatThrownBy(() -> ContextConfig.builder().warnAt(0.85).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("autoCompactAt must be greater than warnAt (0.85), but was 0.8");
    }

    @Test
    void rejectsEqualThresholds() {
        assertThatThrownBy(() -> ContextConfig.builder().snipAt(0.95).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rejectAt must be greater than snipAt (0.95), but was 0.95");
    }

    @Test
    void rejectsANegativeOutputReserve() {
        assertThatThrownBy(() -> ContextConfig.builder().reserveOutputTokens(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("reserveOutputTokens must be >= 0, but was -1");
    }

    @Test
    void rejectsANegativeNumberOfRecentTurns() {
        assertThatThrownBy(() -> new ContextConfig(0.7, 0.8, 0.92, 0.95, 0, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("keepRecentTurns must be >= 0, but was -1");
    }
}
