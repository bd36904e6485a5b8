package io.agentfuse.agent.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ContextBudgetTest {

    private final ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), 1_000);

    @ParameterizedTest(name = "{0} of 1000 tokens is {1}")
    @CsvSource({
        "0,    NORMAL",
        "699,  NORMAL",
        "700,  WARNING",
        "799,  WARNING",
        "800,  AUTO_COMPACT",
        "919,  AUTO_COMPACT",
        "920,  SNIP_COMPACT",
        "949,  SNIP_COMPACT",
        "950,  REJECT",
        "1000, REJECT",
        "1500, REJECT"
    })
    void placesEachBoundaryOnTheSeedLadder(long used, ContextLevel expected) {
        assertThat(budget.levelOf(used)).isEqualTo(expected);
    }

    @Test
    void isExactAtSixtyNineNinePercentAndSeventyPercentOfALargeWindow() {
        ContextBudget large = ContextBudget.of(ContextConfig.defaults(), 200_000);

        assertThat(large.levelOf(139_800)).isEqualTo(ContextLevel.NORMAL);   // 69.9 %
        assertThat(large.levelOf(139_999)).isEqualTo(ContextLevel.NORMAL);
        assertThat(large.levelOf(140_000)).isEqualTo(ContextLevel.WARNING);  // 70 %
        assertThat(large.levelOf(160_000)).isEqualTo(ContextLevel.AUTO_COMPACT);
        assertThat(large.levelOf(184_000)).isEqualTo(ContextLevel.SNIP_COMPACT);
        assertThat(large.levelOf(190_000)).isEqualTo(ContextLevel.REJECT);
    }

    @Test
    void roundsAFractionalBoundaryUpToTheFirstTokenThatReachesIt() {
        ContextBudget odd = ContextBudget.of(ContextConfig.defaults(), 1_001);   // 70 % is 700.7 tokens

        assertThat(odd.startOf(ContextLevel.WARNING)).isEqualTo(701);
        assertThat(odd.levelOf(700)).isEqualTo(ContextLevel.NORMAL);
        assertThat(odd.levelOf(701)).isEqualTo(ContextLevel.WARNING);
    }

    @Test
    void countsReservedOutputTokensAsUsed() {
        ContextBudget reserved = ContextBudget.of(ContextConfig.builder().reserveOutputTokens(100).build(), 1_000);

        assertThat(reserved.levelOf(599)).isEqualTo(ContextLevel.NORMAL);
        assertThat(reserved.levelOf(600)).isEqualTo(ContextLevel.WARNING);
        assertThat(reserved.startOf(ContextLevel.REJECT)).isEqualTo(850);
        assertThat(reserved.usedShare(600)).isEqualTo(0.7);
    }

    @Test
    void startsNormalAtZero() {
        assertThat(budget.startOf(ContextLevel.NORMAL)).isZero();
    }

    @Test
    void rejectsAnEmptyWindow() {
        assertThatThrownBy(() -> ContextBudget.of(ContextConfig.defaults(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("windowTokens must be >= 1, but was 0");
    }

    @Test
    void rejectsAReserveThatFillsTheWindow() {
        ContextConfig config = ContextConfig.builder().reserveOutputTokens(4_000).build();

        assertThatThrownBy(() -> ContextBudget.of(config, 4_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("reserveOutputTokens must be less than windowTokens (4000), but was 4000");
    }

    @Test
    void rejectsNegativeUsage() {
        assertThatThrownBy(() -> budget.levelOf(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("usedTokens must be >= 0, but was -1");
    }
}
