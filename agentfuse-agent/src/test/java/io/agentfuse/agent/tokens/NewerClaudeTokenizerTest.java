package io.agentfuse.agent.tokens;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claude Opus 4.7 and later count a text in up to 1.35× the tokens of the earlier Claude models
 * (Anthropic's release notes), so their estimate is 1.35× higher: at the earlier estimate the
 * context window check let through what the provider refuses as too long.
 */
class NewerClaudeTokenizerTest {

    private static final String PROSE = "The gateway counts a conversation before it sends it, so that a request "
            + "which cannot fit the model's context window is compacted or refused here, not by the provider.";

    @ParameterizedTest
    @ValueSource(strings = {"claude-opus-4-7", "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5-20260630",
        "claude-fable-5-2", "claude-haiku-5-5", "anthropic.claude-opus-4-7", "claude-opus-4-7@20260415",
        "claude-sonnet-9"})
    void countsTheNewerClaudeModelsAtThirtyFivePercentMoreThanTheEarlierEstimate(String model) {
        int base = TiktokenCounter.cl100k().countText(PROSE);

        assertThat(TokenCounter.forModel(model).countText(PROSE)).isEqualTo((int) Math.ceil(base * 1.15 * 1.35));
        assertThat(TokenCounter.forModel("claude-opus-4-6").countText(PROSE)).isEqualTo((int) Math.ceil(base * 1.15));
    }

    @ParameterizedTest
    @CsvSource({
        "claude-opus-4-7, true",
        "claude-opus-4-8-20260601, true",
        "claude-sonnet-5, true",
        "us.anthropic.claude-opus-5-v1:0, true",
        "claude-opus-4-7-20260415, true",
        "claude-opus-4-10, true",
        "claude-sonnet, true",
        "claude-opus-4-6, false",
        "claude-opus-4-1-20250805, false",
        "claude-sonnet-4-20250514, false",
        "claude-sonnet-4-6, false",
        "claude-sonnet-4-5-20250929, false",
        "claude-sonnet-4-5@20250929, false",
        "anthropic.claude-opus-4-20250514-v1:0, false",
        "claude-haiku-4-5, false",
        "claude-3-5-sonnet-20241022, false",
        "claude-3-haiku, false",
        "claude-instant-1.2, false",
        "claude-2.1, false",
        "gpt-5.5, false"})
    void tellsTheModelsOfTheNewerTokenizerFromTheEarlierOnes(String model, boolean newer) {
        assertThat(ModelName.of(model).hasClaudeTokenizerOf47()).isEqualTo(newer);
    }
}
