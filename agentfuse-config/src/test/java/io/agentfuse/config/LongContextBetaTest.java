package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Anthropic's 1M beta ({@link LongContextBeta}): which {@code anthropic-beta} values ask for it, which
 * models take it, and how it meets a window the operator wrote.
 */
class LongContextBetaTest {

    private static final AgentfuseConfig CONFIG = ConfigLoader.parse("""
            providers: { anthropic: {} }
            models:
              sonnet: { provider: anthropic, upstreamModel: claude-sonnet-4-5-20250929 }
              capped: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 200000 }
              opened: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 1000000 }
              haiku: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
            """, "test.yaml", Map.of());

    @Test
    void theBetaIsAskedForByItsNameAnywhereInTheList() {
        assertThat(LongContextBeta.asks("context-1m-2025-08-07")).isTrue();
        assertThat(LongContextBeta.asks("interleaved-thinking-2025-05-14, context-1m-2025-08-07")).isTrue();
        assertThat(LongContextBeta.asks("interleaved-thinking-2025-05-14")).isFalse();
        assertThat(LongContextBeta.asks("context-1m")).isFalse();
        assertThat(LongContextBeta.asks(null)).isFalse();
    }

    @Test
    void sonnetFourAndLaterModelsTheDocsListTakeItByAnyOfTheirNames() {
        assertThat(LongContextBeta.takenBy("claude-sonnet-4-20250514")).isTrue();
        assertThat(LongContextBeta.takenBy("claude-sonnet-4-0")).isTrue();
        assertThat(LongContextBeta.takenBy("claude-sonnet-4-5")).isTrue();
        assertThat(LongContextBeta.takenBy("claude-sonnet-4-5@20250929")).isTrue(); // Vertex AI
        assertThat(LongContextBeta.takenBy("claude-sonnet-4-6")).isTrue();
        assertThat(LongContextBeta.takenBy("claude-opus-4-6")).isTrue();
        assertThat(LongContextBeta.takenBy("claude-haiku-4-5")).isFalse();
        assertThat(LongContextBeta.takenBy("claude-opus-4-1")).isFalse();
        assertThat(LongContextBeta.takenBy("claude-sonnet-4-5-preview")).isFalse();
    }

    @Test
    void aModelThatTakesItHasAMillionTokensWhenAskedAndItsOwnWindowOtherwise() {
        ModelConfig sonnet = CONFIG.model("sonnet").orElseThrow();

        assertThat(LongContextBeta.windowOf(sonnet, "context-1m-2025-08-07")).isEqualTo(1_000_000);
        assertThat(LongContextBeta.windowOf(sonnet, null)).isEqualTo(200_000);
        assertThat(LongContextBeta.windowOf(CONFIG.model("haiku").orElseThrow(), "context-1m-2025-08-07"))
                .isEqualTo(200_000);
    }

    @Test
    void aWindowTheOperatorWroteIsKeptWhateverTheCallerAsks() {
        ModelConfig capped = CONFIG.model("capped").orElseThrow();
        ModelConfig opened = CONFIG.model("opened").orElseThrow();

        assertThat(capped.contextWindowConfigured()).isTrue();
        assertThat(CONFIG.model("sonnet").orElseThrow().contextWindowConfigured()).isFalse();
        assertThat(LongContextBeta.windowOf(capped, "context-1m-2025-08-07")).isEqualTo(200_000);
        assertThat(LongContextBeta.windowOf(opened, null)).isEqualTo(1_000_000);
    }
}
