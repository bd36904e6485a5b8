package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Gemini provider answers 200 without candidates — only its {@code usageMetadata}, or an empty
 * list — and without a {@code promptFeedback.blockReason} that would say the prompt was blocked:
 * there is no answer in it, so it is a failed attempt (as {@code "candidates": null} is), counted by
 * the breaker and fallen back from, complete or streamed (every chunk without candidates), never
 * an empty {@code end_turn}. A blocked prompt is still the provider's answer: a content filter.
 */
class GeminiMissingCandidatesScenarioTest {

    private static final String CONFIG = """
            server:
              port: 0
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              gemini: { type: gemini, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "GEMINI_KEY" }
            retry:
              maxAttempts: 1
            models:
              gemini-primary: { provider: gemini, upstreamModel: gemini-2.5-pro, fallbacks: [claude-haiku-4] }
              claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
              gemini-alone: { provider: gemini, upstreamModel: gemini-2.5-flash }
            """.replace("GEMINI_KEY", MockCredentials.GEMINI_API_KEY);

    private static final String USAGE = "\"usageMetadata\":{\"promptTokenCount\":7,\"totalTokenCount\":7},"
            + "\"modelVersion\":\"gemini-2.5-pro\",\"responseId\":\"r1\"";
    private static final String NO_CANDIDATES = "{" + USAGE + "}";
    private static final String EMPTY_CANDIDATES = "{\"candidates\":[]," + USAGE + "}";
    private static final String BLOCKED = "{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}," + USAGE + "}";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {NO_CANDIDATES, EMPTY_CANDIDATES})
    void aCompleteAnswerWithoutCandidatesIsAFailedAttemptAndTheNextStepAnswers(String body) {
        harness.mock.scriptForModel("gemini-2.5-pro", MockStep.builder().body(body).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("gemini-primary", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gemini-primary=ERROR");
        assertThat(reply.json().encode()).contains(MockStep.DEFAULT_TEXT);
        assertThat(harness.breaker("gemini-primary").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {NO_CANDIDATES, EMPTY_CANDIDATES})
    void aStreamWhoseEveryChunkLacksCandidatesIsAFailedAttemptAndTheNextStepStreams(String chunk) {
        harness.mock.scriptForModel("gemini-2.5-pro", MockStep.builder()
                .body("data: " + chunk + "\n\n" + "data: " + chunk + "\n\n").build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("gemini-primary", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gemini-primary=ERROR");
        assertThat(reply.cutOff()).isFalse();
        assertThat(reply.data()).contains("Hello");
        assertThat(harness.breaker("gemini-primary").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @ParameterizedTest(name = "streamed: {0}")
    @ValueSource(booleans = {false, true})
    void anAnswerWithoutCandidatesAtTheEndOfTheChainIsA502SayingSo(boolean stream) {
        harness.mock.scriptForModel("gemini-2.5-flash", MockStep.builder()
                .body(stream ? "data: " + NO_CANDIDATES + "\n\n" : NO_CANDIDATES).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("gemini-alone", stream));

        assertThat(reply.status()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("message")).contains("gemini-alone", "no candidates").doesNotContain("Exception");
    }

    @ParameterizedTest(name = "streamed: {0}")
    @ValueSource(booleans = {false, true})
    void aBlockedPromptWithoutCandidatesIsStillTheProvidersAnswerAContentFilter(boolean stream) {
        harness.mock.scriptForModel("gemini-2.5-pro", MockStep.builder()
                .body(stream ? "data: " + BLOCKED + "\n\n" : BLOCKED).build());

        if (stream) {
            StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("gemini-primary", true), Map.of());
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.header("x-agentfuse-model")).isEqualTo("gemini-primary");
            assertThat(reply.cutOff()).isFalse();
            assertThat(reply.data()).contains("refusal");
        } else {
            Reply reply = harness.client.post("/v1/messages", anthropicRequest("gemini-primary", false));
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.header("x-agentfuse-model")).isEqualTo("gemini-primary");
            assertThat(reply.json().getString("stop_reason")).isEqualTo("refusal");
        }
        assertThat(harness.breaker("gemini-primary").snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }
}
