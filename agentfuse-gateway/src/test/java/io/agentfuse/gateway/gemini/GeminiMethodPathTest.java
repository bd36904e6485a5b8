package io.agentfuse.gateway.gemini;

import io.agentfuse.gateway.gemini.GeminiMethodPath.Method;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GeminiMethodPathTest {

    @Test
    void givenEachServedMethodWhenThePathIsReadThenTheModelAndMethodComeOut() {
        assertThat(GeminiMethodPath.of("/v1beta/models/gemini-2.5-pro:generateContent"))
                .contains(new GeminiMethodPath("gemini-2.5-pro", Method.GENERATE_CONTENT));
        assertThat(GeminiMethodPath.of("/v1/models/gpt-4o-mini:streamGenerateContent"))
                .contains(new GeminiMethodPath("gpt-4o-mini", Method.STREAM_GENERATE_CONTENT));
        assertThat(GeminiMethodPath.of("/v1beta/models/claude-haiku-4:countTokens"))
                .contains(new GeminiMethodPath("claude-haiku-4", Method.COUNT_TOKENS));
    }

    @Test
    void givenAModelNameWithAColonOrAnEscapeWhenThePathIsReadThenTheLastColonSeparatesTheMethod() {
        assertThat(GeminiMethodPath.of("/v1beta/models/llama3:8b:generateContent").orElseThrow().model()).isEqualTo("llama3:8b");
        assertThat(GeminiMethodPath.of("/v1beta/models/team%2Fmodel+x:generateContent").orElseThrow().model())
                .isEqualTo("team/model+x");
        assertThat(GeminiMethodPath.of("/v1beta/models/llama3:8b%3acountTokens"))
                .contains(new GeminiMethodPath("llama3:8b", Method.COUNT_TOKENS));
        assertThat("/v1beta/models/llama3%3A8b%3AgenerateContent").matches(GeminiMethodPath.ROUTE);
    }

    @Test
    void givenAnotherMethodOrPathWhenThePathIsReadThenNothingIsServed() {
        assertThat(GeminiMethodPath.of("/v1beta/models/gemini-2.5-pro:embedContent")).isEmpty();
        assertThat(GeminiMethodPath.of("/v1beta/models/gemini-2.5-pro")).isEmpty();
        assertThat(GeminiMethodPath.of("/v2/models/gemini-2.5-pro:generateContent")).isEmpty();
        assertThat("/v1beta/models/x:generateContent").matches(GeminiMethodPath.ROUTE);
        assertThat("/v1beta/models/x:embedContent").doesNotMatch(GeminiMethodPath.ROUTE);
    }
}
