package io.agentfuse.gateway.scenario;

import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller that asks for Claude's 1M-token window ({@code anthropic-beta: context-1m-2025-08-07}, as
 * Claude Code sends for {@code sonnet[1m]}): a conversation of some 300 000 tokens to a model that
 * takes the beta is served, where without the beta the gateway refuses it as the API would; the
 * beta reaches Anthropic; a window the operator wrote stays theirs; a fallback of another dialect
 * keeps its own window. The Anthropic mock refuses a prompt over 200 000 tokens without the beta,
 * with the API's words.
 */
class LongContextBetaScenarioTest {

    private static final Map<String, String> BETA = Map.of("anthropic-beta", "context-1m-2025-08-07");
    /** Some 276 000 tokens as the gateway counts Claude's (cl100k, 15 % more), 360 000 as the mock does. */
    private static final String LONG_TEXT = "hello ".repeat(240_000);
    /**
     * What Anthropic reports as the input of that prompt, taken as the mock counts it: the gateway counts a
     * prompt it reported again by its report, which must be a provider's, not the mock's default ten.
     */
    private static final MockStep REPORTED = MockStep.builder().inputTokens(360_004).build();
    private static final String CONFIG = GatewayHarness.CONFIG.replace("maxBodySize: 16KB", "maxBodySize: 4MB")
            .replace("fallbacks: [claude-haiku-4, gpt-4o-mini]", "fallbacks: [gpt-4o-mini]")
            + """
              capped-sonnet: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 200000 }
              opened-sonnet: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 1000000 }
            """;

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private Reply ask(String model, Map<String, String> headers) {
        JsonObject body = new JsonObject().put("model", model).put("max_tokens", 100).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", LONG_TEXT)));
        return harness.client.post("/v1/messages", body, headers);
    }

    @Test
    void aConversationOverTwoHundredThousandTokensIsServedWhenTheCallerAsksForTheMillionTokenWindow() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.script(REPORTED);

        Reply withTheBeta = ask("claude-sonnet-4", BETA);
        Reply withoutIt = ask("claude-sonnet-4", Map.of());

        assertThat(withTheBeta.status()).as(withTheBeta.body()).isEqualTo(200);
        assertThat(withoutIt.status()).as(withoutIt.body()).isEqualTo(413);
        assertThat(withoutIt.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        List<RecordedRequest> sent = harness.mock.requests();
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).header("anthropic-beta")).contains("context-1m-2025-08-07");
        assertThat(sent.get(0).jsonBody().orElseThrow().getJsonArray("messages").getJsonObject(0).getString("content"))
                .isEqualTo(LONG_TEXT);
    }

    @Test
    void theBetaWidensTheWindowTheOperatorLeftToTheDefaultButNotOneTheyWrote() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.script(REPORTED);

        Reply byDefault = ask("claude-sonnet-4", BETA);
        Reply capped = ask("capped-sonnet", BETA); // contextWindow: 200000, written

        assertThat(byDefault.status()).as(byDefault.body()).isEqualTo(200);
        assertThat(capped.status()).as(capped.body()).isEqualTo(413);
        assertThat(capped.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void anthropicRefusesAPromptOverTwoHundredThousandTokensWithoutTheBeta() {
        harness = GatewayHarness.start(CONFIG);

        Reply refused = ask("opened-sonnet", Map.of()); // the operator's window lets it through; the API does not

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().getJsonObject("error").getString("message"))
                .matches("(?s).*prompt is too long: \\d+ tokens > 200000 maximum.*");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void aFallbackOfAnotherDialectKeepsItsOwnWindow() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.script(MockStep.builder().status(500).build());

        Reply failed = ask("claude-sonnet-4", BETA);

        assertThat(harness.requestsFor("claude-sonnet-4-5")).isEqualTo(1);
        assertThat(harness.requestsFor("gpt-4o-mini")).as("gpt-4o-mini's 128 000 tokens cannot take it").isZero();
        assertThat(failed.status()).as(failed.body()).isEqualTo(502);
        assertThat(failed.body()).contains("gpt-4o-mini");
    }
}
