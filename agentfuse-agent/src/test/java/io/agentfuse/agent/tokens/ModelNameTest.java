package io.agentfuse.agent.tokens;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** A model's vendor name read out of the name a route gives it. */
class ModelNameTest {

    @ParameterizedTest
    @CsvSource({
            "claude-sonnet-4-5, claude-sonnet-4-5",
            "anthropic.claude-3-5-sonnet-20240620-v1:0, claude-3-5-sonnet-20240620-v1:0",
            "us-gov.anthropic.claude-3-haiku-20240307-v1:0, claude-3-haiku-20240307-v1:0",
            "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4, claude-sonnet-4",
            "amazon.nova-pro-v1:0, nova-pro-v1:0",
            "openai/GPT-4.1-mini, gpt-4.1-mini",
            "models/gemini-2.5-pro, gemini-2.5-pro",
            "projects/p/locations/global/publishers/google/models/gemini-3-pro-preview, gemini-3-pro-preview",
            "gpt-4.1, gpt-4.1", "o1, o1", "my.deployment, my.deployment"})
    void theVendorsNameIsWhatIsLeftOfTheRoutesName(String model, String name) {
        assertThat(ModelName.of(model).name()).isEqualTo(name);
    }

    @Test
    void aClaudeModelsVersionIsReadAsEveryPlatformWritesIt() {
        assertThat(ModelName.of("claude-opus-4-7").claudeVersion()).isEqualTo(407);
        assertThat(ModelName.of("claude-sonnet-4-5-20250929").claudeVersion()).isEqualTo(405);
        assertThat(ModelName.of("claude-sonnet-4-20250514").claudeVersion()).as("a date is no minor").isEqualTo(400);
        assertThat(ModelName.of("claude-opus-4-1@20250805").claudeVersion()).isEqualTo(401);
        assertThat(ModelName.of("us.anthropic.claude-opus-4-6-v1:0").claudeVersion()).isEqualTo(406);
        assertThat(ModelName.of("claude-sonnet-5").claudeVersion()).isEqualTo(500);
        assertThat(ModelName.of("claude-3-7-sonnet-latest").claudeVersion()).isEqualTo(ModelName.BEFORE_4);
        assertThat(ModelName.of("claude-instant-1.2").claudeVersion()).isEqualTo(ModelName.BEFORE_4);
        assertThat(ModelName.of("claude-sonnet-latest").claudeVersion()).isEqualTo(ModelName.UNREAD);
        assertThat(ModelName.of("gpt-4o").claudeVersion()).isEqualTo(ModelName.UNREAD);
    }

    @Test
    void geminiGenerationsBefore3AreToldFromTheLaterOnes() {
        assertThat(ModelName.of("models/gemini-2.0-flash").isGeminiBefore3()).isTrue();
        assertThat(ModelName.of("gemini-pro-vision").isGeminiBefore3()).isTrue();
        assertThat(ModelName.of("gemini-3-flash-preview").isGeminiBefore3()).isFalse();
        assertThat(ModelName.of("gemini-3-flash-preview").isGemini()).isTrue();
    }

    @Test
    void aFamilyTakesItsSnapshotsButNotALaterVersion() {
        assertThat(ModelName.of("gpt-4o-2024-08-06").isOf("gpt-4o")).isTrue();
        assertThat(ModelName.of("gpt-5.1").isOf("gpt-5")).isFalse();
        assertThat(ModelName.of("o10").isOf("o1")).isFalse();
    }

    @ParameterizedTest
    @CsvSource({
            "us.anthropic.claude-opus-4-6-v1:0, claude-opus-4-6",
            "global.anthropic.claude-sonnet-4-5-20250929-v1:0, claude-sonnet-4-5-20250929",
            "anthropic.claude-3-5-sonnet-20241022-v2:0, claude-3-5-sonnet-20241022",
            "amazon.nova-pro-v1:0, nova-pro",
            "claude-sonnet-4-5@20250929, claude-sonnet-4-5",
            "publishers/anthropic/models/claude-opus-4-6@20260205, claude-opus-4-6",
            "claude-sonnet-4-5, claude-sonnet-4-5",
            "gpt-4o-2024-08-06, gpt-4o-2024-08-06",
            "claude-haiku-4-5-v, claude-haiku-4-5-v",
            "model-v1:beta, model-v1:beta"})
    void theVendorsTableNameLeavesOutACloudsOwnVersion(String model, String vendorName) {
        assertThat(ModelName.of(model).vendorName()).isEqualTo(vendorName);
    }
}
