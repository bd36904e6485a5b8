package io.agentfuse.gateway.provider.anthropic;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WindowOvershootTest {

    @Test
    void theFourFiveModelsAndLaterStopAtTheWindowByEveryVendorsName() {
        for (String model : new String[] {"claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-haiku-4-5@20251001",
                "anthropic.claude-haiku-4-5-20251001-v1:0", "us.anthropic.claude-opus-4-6-v1:0", "claude-sonnet-5",
                "claude-opus-5-5", "claude-mythos-5-2", "CLAUDE-SONNET-4-5"}) {
            assertThat(WindowOvershoot.stopsAtWindow(model)).as(model).isTrue();
        }
    }

    @Test
    void claudeThreeSevenToFourOneAndNamesItCannotReadRefuse() {
        for (String model : new String[] {"claude-3-7-sonnet-20250219", "claude-3-7-sonnet-latest", "claude-sonnet-4-20250514",
                "claude-sonnet-4-0", "claude-opus-4-1", "claude-opus-4-1@20250805", "anthropic.claude-opus-4-1-20250805-v1:0",
                "claude-3-5-haiku-20241022", "house-model", "gpt-4o-mini"}) {
            assertThat(WindowOvershoot.stopsAtWindow(model)).as(model).isFalse();
        }
    }
}
