package io.agentfuse.gateway.scenario;

import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** The chain claude-sonnet-4 → claude-haiku-4 → gpt-4o-mini, across dialects, complete and streamed. */
class FallbackScenarioTest {

    private static final String BOTH_CLAUDES_FAILED =
            "claude-sonnet-4=SERVER_ERROR(HTTP 500); claude-haiku-4=SERVER_ERROR(HTTP 500)";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(GatewayHarness.configWithPrimary("firstTokenTimeout: 300ms"));
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    private void claudesFail() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).build());
    }

    @Test
    void anOpenAiCallerIsAnsweredByGptWhenBothClaudesFail() {
        claudesFail();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("from gpt").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"))
                .isEqualTo("from gpt");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("3");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo(BOTH_CLAUDES_FAILED);
    }

    @Test
    void anAnthropicCallerGetsGptsAnswerInTheAnthropicShape() {
        claudesFail();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("from gpt").build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getString("type")).isEqualTo("message");
        assertThat(reply.json().getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("from gpt");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(harness.mock.requests().get(2).path()).isEqualTo("/v1/chat/completions");
    }

    @Test
    void anAnthropicCallersStreamFallsBackToGptTranslatedToAnthropicEvents() {
        claudesFail();
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().chunks("from ", "gpt").build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo(BOTH_CLAUDES_FAILED);
        assertThat(reply.events()).extracting(event -> event.event()).startsWith("message_start").endsWith("message_stop");
        assertThat(reply.data()).contains("from ").contains("gpt");
    }

    @Test
    void anOpenAiCallersStreamFallsBackFromGptToClaudeTranslatedToOpenAiChunks() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(503).body("{\"error\":{\"message\":\"down\"}}").build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().chunks("from ", "haiku").build());

        StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gpt-4o-mini=SERVER_ERROR(HTTP 503)");
        assertThat(reply.events().get(reply.events().size() - 1).isDone()).isTrue();
        assertThat(reply.data()).contains("chat.completion.chunk").contains("haiku");
    }

    @Test
    void aStepBehindAnOpenBreakerIsSkippedWithoutACall() {
        harness.breaker("claude-sonnet-4").forceOpen("maintenance");

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-sonnet-4=circuit_open");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("1");
        assertThat(harness.requestsFor("claude-sonnet-4-5")).isZero();
    }

    @Test
    void stepsThatCannotTakeTheRequestAreSkippedWithTheReason() {
        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false).put("n", 2));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-fallbacks"))
                .isEqualTo("claude-sonnet-4=untranslatable; claude-haiku-4=untranslatable");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void aFirstTokenTooSlowFallsBackBeforeTheCallerSeesAByte() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().firstChunkDelayMs(10_000).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().chunks("quick").build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-sonnet-4=TIMEOUT");
        assertThat(reply.data()).contains("quick").doesNotContain("error");
        Eventually.holds(harness.vertx, () -> harness.mock.requests().get(0).clientDisconnected());
    }

    @Test
    void aProviderThatRedirectsIsAFailedStepFallenBackFromAndHeldAgainstItsBreaker() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(301)
                .header("location", "https://moved.example/v1/messages").times(3).build());
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("from haiku").times(3).build());

        for (int i = 0; i < 3; i++) {
            Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
            assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-sonnet-4=ERROR(HTTP 301)");
        }
        assertThat(harness.breaker("claude-sonnet-4").snapshot().counts())
                .containsEntry("consecutiveErrors", 3L).containsEntry("failureRate.hits", 3L);
    }

    @Test
    void aChainOfRedirectsEndsIn502SayingWhereTheProviderPointedAndWhy() {
        for (String model : new String[] {"claude-sonnet-4-5", "claude-haiku-4-5", "gpt-4o-mini"}) {
            harness.mock.scriptForModel(model, MockStep.builder().status(308).header("location", "https://moved.example/v2").build());
        }

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .contains("HTTP 308: a redirect to 'https://moved.example/v2', not followed: is the provider's baseUrl current?");
    }
}
