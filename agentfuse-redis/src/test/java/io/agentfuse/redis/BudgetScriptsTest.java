package io.agentfuse.redis;

import io.agentfuse.core.budget.WindowKey;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BudgetScriptsTest {

    @Test
    void aScopeValueWithColonsAndPercentsMakesAKeyThatReadsBack() {
        WindowKey window = new WindowKey("per-session", "user:42/%x+y", 1_767_225_600_000L);

        String key = BudgetKeys.window("agentfuse:", window);

        assertThat(key).isEqualTo("agentfuse:budget:per-session:user%3A42%2F%25x%2By:1767225600000");
        assertThat(BudgetKeys.windowOf("agentfuse:", key)).isEqualTo(window);
    }

    @Test
    void keysThatAreNotWindowsReadAsNothing() {
        assertThat(BudgetKeys.windowOf("agentfuse:", "agentfuse:breaker:model:x")).isNull();
        assertThat(BudgetKeys.windowOf("agentfuse:", "agentfuse:budget:a:b:notanumber")).isNull();
        assertThat(BudgetKeys.windowOf("agentfuse:", "agentfuse:budget:a:b")).isNull();
    }

    @Test
    void aListedEntryWrittenByAnyoneElseIsLeftOut() {
        List<Object> reply = List.of(
                "agentfuse:budget:b:s:0", "10", "0", "5", "0", "100", "-1", "86400000",
                "agentfuse:budget:b:t:0", "x", "0", "0", "0", "100", "-1", "86400000",
                "other", "1", "1", "1", "1", "1", "1", "1");

        assertThat(BudgetReplies.listed("agentfuse:", reply)).singleElement()
                .satisfies(tally -> assertThat(tally.key().scopeValue()).isEqualTo("s"));
    }
}
