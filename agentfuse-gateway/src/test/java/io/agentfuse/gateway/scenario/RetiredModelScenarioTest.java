package io.agentfuse.gateway.scenario;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chain whose model its provider has retired: OpenAI and Anthropic answer 404 for a model they no
 * longer serve ({@code model_not_found}, {@code not_found_error "model: …"}), and Google {@code NOT_FOUND};
 * so does the mock (GPT-4.5 Preview, shut down in July 2025; Claude Sonnet 4, retired in June 2026;
 * Gemini 1.5 Pro, in September 2025). The name is the
 * gateway's configuration, not the caller's request: the step is fallen back from, not retried, and its
 * breaker opens after {@code consecutiveErrors}, so a retired model stops costing a round trip. Only when
 * every step called was refused its model does the caller get the provider's 404, as for any refusal.
 */
class RetiredModelScenarioTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
              gemini: { type: gemini, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "%s" }
            retry: { maxAttempts: 3, initialDelay: 1ms }
            breakers:
              default: { consecutiveErrors: 2, resetTimeout: 1h }
            models:
              smart: { provider: openai, upstreamModel: gpt-4.5-preview, fallbacks: [claude-haiku-4-5] }
              claude-sonnet-4: { provider: anthropic, upstreamModel: claude-sonnet-4-20250514, fallbacks: [gpt-4o-mini] }
              claude-haiku-4-5: { provider: anthropic }
              gpt-4o-mini: { provider: openai }
              old-only: { provider: openai, upstreamModel: gpt-4.5-preview, fallbacks: [old-claude] }
              old-claude: { provider: anthropic, upstreamModel: claude-sonnet-4-20250514 }
              old-then-down: { provider: openai, upstreamModel: gpt-4.5-preview, fallbacks: [gpt-4o-mini] }
              gemini-old: { provider: gemini, upstreamModel: gemini-1.5-pro, fallbacks: [gemini-2.5-flash] }
              gemini-2.5-flash: { provider: gemini }
            """.formatted(MockCredentials.GEMINI_API_KEY);

    private static final String SUBAGENT = "x-agentfuse-subagent";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void anOpenAiModelItsProviderRetiredIsFallenBackFromNotRetried() {
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("Served by Haiku.").build());

        Reply reply = harness.client.post("/v1/chat/completions", chat("smart"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"))
                .isEqualTo("Served by Haiku.");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4-5");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("smart=ERROR(HTTP 404 model refused)");
        assertThat(harness.mock.requestsFor("gpt-4.5-preview")).as("the same name is refused again: not retried").hasSize(1);
    }

    @Test
    void aRetiredClaudeModelBehindClaudeCodesDialectIsFallenBackFromInAStream() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("Served by GPT-4o mini.").build());

        StreamReply reply = harness.client.stream("/v1/messages", new JsonObject().put("model", "claude-sonnet-4")
                .put("max_tokens", 1_000).put("stream", true)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hello?"))), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.cutOff()).isFalse();
        assertThat(reply.data()).contains("\"text\":\"GPT-4o \"").contains("message_stop");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-sonnet-4=ERROR(HTTP 404 model refused)");
        assertThat(harness.mock.requestsFor("claude-sonnet-4-20250514")).hasSize(1);
    }

    @Test
    void aGeminiModelGoogleShutDownIsFallenBackFrom() {
        harness.mock.scriptForModel("gemini-2.5-flash", MockStep.builder().text("Served by Flash.").build());

        Reply reply = harness.client.post("/v1/chat/completions", chat("gemini-old"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gemini-2.5-flash");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gemini-old=ERROR(HTTP 404 model refused)");
        assertThat(harness.mock.requestsFor("gemini-1.5-pro")).hasSize(1);
    }

    @Test
    void theRetiredModelsBreakerOpensSoItStopsCostingARoundTripAndTheOperatorIsToldOnce() {
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("one").build(),
                MockStep.builder().text("two").build(), MockStep.builder().text("three").build());
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger("io.agentfuse.gateway.pipeline.RefusedModels");
        lines.start();
        logger.addAppender(lines);
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(harness.client.post("/v1/chat/completions", chat("smart")).status()).isEqualTo(200);
            }
        } finally {
            logger.detachAppender(lines);
        }

        assertThat(lines.list).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.WARN);
            assertThat(line.getFormattedMessage()).isEqualTo("model smart: provider openai serves no model of the name the"
                    + " gateway sent (HTTP 404: The model `gpt-4.5-preview` does not exist or you do not have access to it.):"
                    + " check the model's upstreamModel, or take the model out of its chains; its requests go to its fallbacks"
                    + " (said once per model)");
        });
        assertThat(harness.mock.requestsFor("gpt-4.5-preview")).as("consecutiveErrors: 2, then skipped").hasSize(2);
        Reply third = harness.client.post("/v1/chat/completions", chat("smart"));
        assertThat(third.header("x-agentfuse-fallbacks")).startsWith("smart=circuit_open");
    }

    @Test
    void whenEveryModelCalledWasRefusedTheCallerGetsTheLastRefusalAsItCame() {
        Reply reply = harness.client.post("/v1/messages", new JsonObject().put("model", "old-only").put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hello?"))));

        assertThat(reply.status()).as(reply.body()).isEqualTo(404);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("not_found_error");
        assertThat(reply.json().getJsonObject("error").getString("message")).isEqualTo("model: claude-sonnet-4-20250514");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("old-only=ERROR(HTTP 404 model refused); "
                + "old-claude=ERROR(HTTP 404 model refused)");
        assertThat(reply.header("x-should-retry")).isNull();
    }

    @Test
    void aRetiredModelBesideAFailingFallbackEndsAsTheChainsOwnErrorNamingBoth() {
        MockStep down = MockStep.builder().status(503).build();
        harness.mock.scriptForModel("gpt-4o-mini", down, down, down);

        Reply reply = harness.client.post("/v1/chat/completions", chat("old-then-down"));

        assertThat(reply.status()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("message")).contains("provider openai serves no model of the name the gateway sent (HTTP 404: "
                + "The model `gpt-4.5-preview` does not exist or you do not have access to it.): check the model's upstreamModel")
                .contains("gpt-4o-mini failed (OVERLOADED: HTTP 503");
    }

    /**
     * Regression: a model name the caller wrote (a built-in family's, no entry naming it) that the provider
     * refused was fallen back from, so a misspelt or retired name was served by another model, and its
     * breaker opened on the caller's mistake. It is the caller's 404, passed on as any provider's 4xx.
     */
    @Test
    void aModelNameTheCallerWroteThatTheProviderRefusesIsTheCallers404NotFallenBackFrom() {
        startWithSubagentFallbacks();

        for (int i = 0; i < 3; i++) { // more than consecutiveErrors: its breaker is not the caller's to open
            Reply reply = asSubagent("gpt-4.5-preview");

            assertThat(reply.status()).as(reply.body()).isEqualTo(404);
            assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("model_not_found");
            assertThat(reply.json().getJsonObject("error").getString("message"))
                    .isEqualTo("The model `gpt-4.5-preview` does not exist or you do not have access to it.");
            assertThat(reply.header("x-agentfuse-fallbacks")).isNull();
        }
        StreamReply stream = harness.client.stream("/v1/chat/completions", chat("gpt-4.5-preview").put("stream", true),
                Map.of(SUBAGENT, "reviewer"));
        assertThat(stream.status()).as("a stream's attempt alike").isEqualTo(404);
        assertThat(harness.mock.requestsFor("gpt-4.5-preview")).hasSize(4);
        assertThat(harness.mock.requestsFor("gpt-4o-mini")).isEmpty();
        assertThat(harness.client.get("/metrics").body()).as("metered as its breaker judges it")
                .contains("gen_ai_client_operation_duration_seconds_count{error_type=\"CLIENT_ERROR\",gen_ai_operation_name="
                        + "\"chat\",gen_ai_provider_name=\"openai\",gen_ai_request_model=\"gpt-4.5-preview\"} 4");
    }

    /** The same default fallbacks serve a configured name the provider refuses: that name is the operator's. */
    @Test
    void aConfiguredNameTheProviderRefusesIsFallenBackFromToTheDefaultFallbacks() {
        startWithSubagentFallbacks();

        Reply reply = asSubagent("old-claude"); // no fallbacks of its own; its upstream name was retired

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("old-claude=ERROR(HTTP 404 model refused)");
    }

    private void startWithSubagentFallbacks() {
        harness.close();
        harness = GatewayHarness.start(CONFIG + """
                subagents:
                  fallbacks: [gpt-4o-mini, null]
                """);
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("Served by GPT-4o mini.").build());
    }

    /** A subagent's request of {@code model}: the default fallbacks apply to a model with none of its own. */
    private Reply asSubagent(String model) {
        return harness.client.send(HttpMethod.POST, "/v1/chat/completions", chat(model).toBuffer(),
                Map.of("content-type", "application/json", SUBAGENT, "reviewer"));
    }

    private static JsonObject chat(String model) {
        return new JsonObject().put("model", model)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hello?")));
    }
}
