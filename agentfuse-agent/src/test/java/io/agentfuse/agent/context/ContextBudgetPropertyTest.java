package io.agentfuse.agent.context;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class ContextBudgetPropertyTest {

    @Property
    void eachLevelStartsExactlyWhereStartOfSays(@ForAll @LongRange(min = 1, max = 2_000_000) long window,
                                               @ForAll @IntRange(min = 0, max = 5_000) int reserve,
                                               @ForAll @IntRange(min = 1, max = 4) int levelIndex) {
        if (reserve >= window) {
            return;
        }
        ContextBudget budget = ContextBudget.of(ContextConfig.builder().reserveOutputTokens(reserve).build(), window);
        ContextLevel level = ContextLevel.values()[levelIndex];

        long start = budget.startOf(level);

        assertThat(budget.levelOf(start)).matches(found -> found.isAtLeast(level), "at least " + level);
        if (start > 0) {
            assertThat(budget.levelOf(start - 1)).matches(found -> !found.isAtLeast(level), "below " + level);
        }
    }

    @Property
    void fullerConversationsNeverSitOnALowerLevel(@ForAll @LongRange(min = 1, max = 2_000_000) long window,
                                                  @ForAll @LongRange(min = 0, max = 3_000_000) long used,
                                                  @ForAll @IntRange(min = 1, max = 1_000) int more) {
        ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), window);

        assertThat(budget.levelOf(used + more)).isGreaterThanOrEqualTo(budget.levelOf(used));
    }
}
