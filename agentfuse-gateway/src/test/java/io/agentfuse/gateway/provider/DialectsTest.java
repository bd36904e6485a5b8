package io.agentfuse.gateway.provider;

import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.provider.vertex.VertexAnthropicDialect;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What each registered dialect answers when the gateway asks it instead of branching. */
class DialectsTest {

    private static MultiMap headers(String... namesAndValues) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }

    @Test
    void aProviderTypeNamesItsDialect() {
        assertThat(Dialects.named("ANTHROPIC")).contains(Dialects.ANTHROPIC);
        assertThat(Dialects.named("openai")).contains(Dialects.OPENAI);
        assertThat(Dialects.named("responses")).contains(Dialects.RESPONSES);
    }

    @Test
    void anOpenAiProviderSpeaksToEachCallerInItsOwnOpenAiDialect() {
        assertThat(Dialects.forProvider("OPENAI", Dialects.RESPONSES, "gpt-4.1")).contains(Dialects.RESPONSES);
        assertThat(Dialects.forProvider("openai", Dialects.OPENAI, "gpt-4.1")).contains(Dialects.OPENAI);
        assertThat(Dialects.forProvider("openai", Dialects.ANTHROPIC, "gpt-4.1")).contains(Dialects.OPENAI);
        assertThat(Dialects.forProvider("anthropic", Dialects.RESPONSES, "claude-sonnet-4")).contains(Dialects.ANTHROPIC);
        assertThat(Dialects.forProvider("mistral", Dialects.RESPONSES, "m")).isEmpty();
    }

    @Test
    void eachCloudProviderTypeIsSpokenInItsDialectAndVertexByTheModelsPublisher() {
        assertThat(Dialects.forProvider("bedrock", Dialects.ANTHROPIC, "anthropic.claude-sonnet-4-20250514-v1:0"))
                .contains(Dialects.BEDROCK);
        assertThat(Dialects.forProvider("gemini", Dialects.OPENAI, "gemini-2.5-pro")).contains(Dialects.GEMINI);
        assertThat(Dialects.forProvider("vertex", Dialects.OPENAI, "claude-sonnet-4@20250514")).contains(Dialects.VERTEX_ANTHROPIC);
        assertThat(Dialects.forProvider("vertex", Dialects.ANTHROPIC, "gemini-2.5-pro")).contains(Dialects.VERTEX_GEMINI);
        assertThat(Dialects.forProvider("azure", Dialects.ANTHROPIC, "gpt-41")).contains(Dialects.AZURE);
        assertThat(Dialects.forProvider("azure", Dialects.RESPONSES, "gpt-41")).contains(Dialects.AZURE_RESPONSES);
    }

    @Test
    void theProviderOnlyDialectsClaimNoCaller() {
        assertThat(Dialects.all()).doesNotContain(Dialects.BEDROCK, Dialects.VERTEX_GEMINI,
                Dialects.VERTEX_ANTHROPIC, Dialects.AZURE, Dialects.AZURE_RESPONSES);
        assertThat(Dialects.forPath("/model")).isEmpty();
        // Gemini is both: its callers are served on their model's paths, its providers spoken to.
        assertThat(Dialects.all()).contains(Dialects.GEMINI);
        assertThat(Dialects.forProvider("gemini", Dialects.OPENAI, "gemini-2.5-pro")).contains(Dialects.GEMINI);
    }

    @Test
    void theResponsesApiIsServedAtItsOwnPathsWithOpenAiAuthentication() {
        assertThat(Dialects.forPath("/v1/responses")).contains(Dialects.RESPONSES);
        assertThat(Dialects.ofCaller("/v1/responses/resp_1", headers())).isSameAs(Dialects.RESPONSES);
        assertThat(Dialects.RESPONSES.upstreamPath()).isEqualTo("/responses");
        assertThat(Dialects.RESPONSES.authHeaders("k")).containsEntry("authorization", "Bearer k");
        assertThat(Dialects.RESPONSES.providerType()).isEqualTo("openai");
    }

    @Test
    void aResponsesAnswerThatIsNotAFinishedResponseIsMalformed() {
        assertThatThrownBy(() -> Dialects.RESPONSES.checkAnswer(Buffer.buffer("{\"choices\":[]}")))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("object must be \"response\"");
        assertThatThrownBy(() -> Dialects.RESPONSES.checkAnswer(Buffer.buffer(
                "{\"object\":\"response\",\"id\":\"resp_1\",\"status\":\"failed\",\"output\":[]}")))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("not a finished answer");
    }

    @Test
    void theCallersDialectIsToldFromAnyPathOrItsHeaders() {
        assertThat(Dialects.ofCaller("/v1/messages/batches", headers())).isSameAs(Dialects.ANTHROPIC);
        assertThat(Dialects.ofCaller("/v1/models", headers("anthropic-version", "2023-06-01"))).isSameAs(Dialects.ANTHROPIC);
        assertThat(Dialects.ofCaller("/v1/models", headers())).isSameAs(Dialects.OPENAI);
    }

    @Test
    void eachDialectAuthenticatesTheGatewaysKeyItsOwnWay() {
        assertThat(Dialects.OPENAI.authHeaders("k")).containsEntry("authorization", "Bearer k");
        assertThat(Dialects.ANTHROPIC.authHeaders("k")).containsEntry("x-api-key", "k");
        assertThat(Dialects.ANTHROPIC.authHeaders("")).isEmpty();
    }

    @Test
    void anthropicForwardsTheCallersVersionAndBetaAndNothingElse() {
        MultiMap caller = headers("anthropic-version", "2024-10-22", "anthropic-beta", "b1", "x-api-key", "caller-key");

        assertThat(Dialects.ANTHROPIC.forwardedHeaders(caller))
                .containsOnlyKeys("anthropic-version", "anthropic-beta");
        assertThat(Dialects.ANTHROPIC.defaultHeaders()).containsEntry("anthropic-version", "2023-06-01");
        assertThat(Dialects.OPENAI.forwardedHeaders(caller)).isEmpty();
    }

    @Test
    void everyBetaACallerSendsIsForwardedAsOneListThoughItCameInSeveralHeaders() {
        MultiMap caller = MultiMap.caseInsensitiveMultiMap().add("anthropic-beta", "beta-one, beta-two")
                .add("Anthropic-Beta", "beta-three").add("anthropic-beta", " ");

        assertThat(Dialects.ANTHROPIC.forwardedHeaders(caller)).containsEntry("anthropic-beta", "beta-one, beta-two,beta-three");
        assertThat(VertexAnthropicDialect.INSTANCE.forwardedHeaders(caller))
                .isEqualTo(Map.of("anthropic-beta", "beta-one, beta-two,beta-three"));
    }

    @Test
    void anAnswerOfTheOtherDialectIsMalformed() {
        Buffer anthropic = Buffer.buffer("{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}]}");

        assertThatThrownBy(() -> Dialects.OPENAI.checkAnswer(anthropic)).isInstanceOf(MalformedAnswerException.class)
                .hasMessage("choices must be an array, but was missing or null");
        assertThatThrownBy(() -> Dialects.ANTHROPIC.checkAnswer(Buffer.buffer("{\"choices\":[]}")))
                .hasMessage("type must be \"message\", but was missing");
        assertThat(Dialects.ANTHROPIC.checkAnswer(anthropic).getString("type")).isEqualTo("message");
    }

    @Test
    void aWrongTypeIsNamedInWordsNotJavaTypes() {
        assertThatThrownBy(() -> Dialects.OPENAI.checkAnswer(Buffer.buffer(
                "{\"choices\":[{\"message\":{\"content\":42}}]}")))
                .hasMessage("choices[0].message.content must be a string or null, but was a number");
        assertThatThrownBy(() -> Dialects.ANTHROPIC.checkAnswer(Buffer.buffer(""))).hasMessage("the answer is empty");
    }

    @Test
    void streamErrorTypesMapToOutcomes() {
        assertThat(Dialects.ANTHROPIC.streamErrorOutcome("overloaded_error")).isEqualTo(Outcome.OVERLOADED);
        assertThat(Dialects.ANTHROPIC.streamErrorOutcome("rate_limit_error")).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(Dialects.OPENAI.streamErrorOutcome("server_error")).isEqualTo(Outcome.SERVER_ERROR);
    }
}
