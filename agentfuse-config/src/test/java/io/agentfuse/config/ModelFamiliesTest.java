package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ModelFamiliesTest {

    @ParameterizedTest
    @CsvSource({
        "claude-haiku-4, anthropic, 200000",
        "claude-sonnet-4-5, anthropic, 200000",
        "claude-2.0, anthropic, 100000",
        "gpt-4o-mini, openai, 128000",
        "gpt-4o-2024-08-06, openai, 128000",
        "gpt-4, openai, 8192",
        "gpt-4-0613, openai, 8192",
        "gpt-4-turbo, openai, 128000",
        "gpt-4.1-mini, openai, 1047576",
        "gpt-5, openai, 400000",
        "chatgpt-4o-latest, openai, 128000",
        "o1-mini, openai, 128000",
        "o3-mini, openai, 200000",
        "o4-mini, openai, 200000",
        "gpt-7-preview, openai, 128000"})
    void routesEachFamilyToItsProviderWithItsPublishedWindow(String model, String provider, int window) {
        assertThat(ModelFamilies.providerOf(model)).contains(provider);
        assertThat(ModelFamilies.contextWindowOf(model)).isEqualTo(window);
    }

    @ParameterizedTest
    @ValueSource(strings = {"llama-3.1-70b", "gemini-2.5-pro", "mistral-large", "claude", "my-gpt-4o"})
    void knowsNoOtherFamily(String model) {
        assertThat(ModelFamilies.providerOf(model)).isEmpty();
        assertThatThrownBy(() -> ModelFamilies.contextWindowOf(model))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("model " + model + " belongs to no built-in provider's family");
    }
}
