package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An error the gateway answers itself after its attempts — a chain exhausted by 503s, by 429s, by
 * answers that are not JSON (502 {@code all_fallbacks_failed} each), by a refusal of the gateway's key
 * (502 {@code upstream_auth_failed}), or by streams whose opening event was an error — carries the request id of the provider's answer to the
 * last attempt as {@code x-agentfuse-provider-request-id} (docs/design.md §7), whichever header the
 * provider named it by (OpenAI's {@code x-request-id}, Anthropic's {@code request-id}), so that the
 * caller can quote the failed call to the provider's support.
 */
class ProviderRequestIdScenarioTest {

    private static final String HEADER = "x-agentfuse-provider-request-id";
    /** Two attempts per step, so that each step is retried before the chain falls back. */
    private static final String RETRIED = GatewayHarness.CONFIG.replace("maxAttempts: 1", "maxAttempts: 2");

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void anOpenAiCallerWhoseChainEndsIn503sGetsTheLastAnthropicAttemptsRequestId() {
        harness = GatewayHarness.start(RETRIED);
        harness.mock.scriptForModel("gpt-4o-mini", unavailable("x-request-id", "req_oai_1"), unavailable("x-request-id", "req_oai_2"));
        harness.mock.scriptForModel("claude-haiku-4-5", unavailable("request-id", "req_ant_1"), unavailable("request-id", "req_ant_2"));

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(harness.mock.requests()).hasSize(4);
        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(reply.header(HEADER)).isEqualTo("req_ant_2");
        assertThat(reply.header("request-id")).as("the gateway's own answer carries no header of the provider's").isNull();
    }

    @Test
    void anAnthropicCallerWhoseChainEndsIn503sGetsTheLastOpenAiAttemptsRequestId() {
        harness = GatewayHarness.start(RETRIED);
        harness.mock.scriptForModel("claude-sonnet-4-5", unavailable("request-id", "req_s1"), unavailable("request-id", "req_s2"));
        harness.mock.scriptForModel("claude-haiku-4-5", unavailable("request-id", "req_h1"), unavailable("request-id", "req_h2"));
        harness.mock.scriptForModel("gpt-4o-mini", unavailable("x-request-id", "req_o1"), unavailable("x-request-id", "req_o2"));

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                Map.of("x-request-id", "caller-turn-3"));

        assertThat(harness.mock.requests()).hasSize(6);
        assertThat(reply.status()).isGreaterThanOrEqualTo(500);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(reply.header(HEADER)).isEqualTo("req_o2");
        assertThat(reply.headers().getAll("x-request-id")).as("the caller's own id stays its own").containsExactly("caller-turn-3");
    }

    @Test
    void anAnthropicCallerRateLimitedOnEveryAttemptGetsTheLastAttemptsRequestId() {
        harness = GatewayHarness.start(RETRIED);
        harness.mock.scriptForModel("claude-haiku-4-5", limited("request-id", "req_l1"), limited("request-id", "req_l2"));

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(harness.mock.requests()).hasSize(2);
        assertThat(reply.status()).as(reply.body()).isEqualTo(502);
        assertThat(reply.header(HEADER)).isEqualTo("req_l2");
    }

    @Test
    void anOpenAiCallerRateLimitedOnEveryAttemptGetsTheLastAttemptsRequestId() {
        harness = GatewayHarness.start(RETRIED);
        harness.mock.scriptForModel("gpt-4o-mini", limited("x-request-id", "req_o1"), limited("x-request-id", "req_o2"));
        harness.mock.scriptForModel("claude-haiku-4-5", limited("request-id", "req_a1"), limited("request-id", "req_a2"));

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(harness.mock.requests()).hasSize(4);
        assertThat(reply.status()).as(reply.body()).isEqualTo(502);
        assertThat(reply.header(HEADER)).isEqualTo("req_a2");
    }

    @Test
    void aStreamWhoseOpeningEventIsAnErrorOnEveryAttemptCarriesTheLastAttemptsRequestId() {
        harness = GatewayHarness.start(RETRIED.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai }"));
        String overloaded = "data: {\"error\":{\"message\":\"The server is overloaded\",\"type\":\"server_error\",\"code\":null}}\n\n";
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().header("x-request-id", "req_st1").body(overloaded).build(),
                MockStep.builder().header("x-request-id", "req_st2").body(overloaded).build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", true));

        assertThat(harness.mock.requests()).hasSize(2);
        assertThat(reply.status()).as(reply.body()).isGreaterThanOrEqualTo(500);
        assertThat(reply.header(HEADER)).isEqualTo("req_st2");
    }

    @Test
    void theMocksNameEachAnswerAsTheRealProvidersDoAndTheIdReachesTheCaller() {
        harness = GatewayHarness.start(RETRIED.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai }"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(503).build(), MockStep.builder().status(503).build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.header(HEADER)).matches("req_[0-9a-f]{32}");
    }

    @Test
    void aRefusalOfTheGatewaysKeyCarriesTheRefusalsRequestId() {
        harness = GatewayHarness.start(RETRIED.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai }"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(401).header("x-request-id", "req_refused").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).as(reply.body()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("upstream_auth_failed");
        assertThat(reply.header(HEADER)).isEqualTo("req_refused");
    }

    @Test
    void anAnswerThatIsNotJsonOnEveryAttemptCarriesTheLastAttemptsRequestId() {
        harness = GatewayHarness.start(RETRIED.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai }"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().header("x-request-id", "req_m1").body("this is not json").build(),
                MockStep.builder().header("x-request-id", "req_m2").body("this is not json").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(harness.mock.requests()).hasSize(2);
        assertThat(reply.status()).as(reply.body()).isEqualTo(502);
        assertThat(reply.header(HEADER)).isEqualTo("req_m2");
    }

    private static MockStep unavailable(String header, String id) {
        return MockStep.builder().status(503).header(header, id).build();
    }

    private static MockStep limited(String header, String id) {
        return MockStep.builder().status(429).header(header, id).build();
    }
}
