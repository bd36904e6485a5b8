package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.anthropic.AnthropicRequestWriter;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ModelRouterTest {

    private final AgentfuseRuntime runtime = AgentfuseRuntime.builder(
            ConfigLoader.parse(GatewayHarness.CONFIG, "test.yaml", Map.of("MOCK_PORT", "9"))).build();
    private final ModelRouter router = new ModelRouter(runtime, List.of());

    private ModelRequest request(Dialect dialect, String body) {
        return RequestParser.parse(dialect, Buffer.buffer(body), null, runtime.config(), runtime::model);
    }

    @Test
    void plansTheModelThenItsFallbacksEachInItsProvidersDialect() {
        ModelRequest request = request(Dialects.OPENAI, GatewayHarness.openAiRequest("claude-sonnet-4", false).encode());

        List<PlannedStep> steps = router.plan(request, MultiMap.caseInsensitiveMultiMap()).steps();

        assertThat(steps).extracting(PlannedStep::name).containsExactly("claude-sonnet-4", "claude-haiku-4", "gpt-4o-mini");
        assertThat(steps.get(0).upstream().provider().url()).isEqualTo("http://127.0.0.1:9/v1/messages");
        JsonObject written = new JsonObject(steps.get(0).upstream().bytes());
        assertThat(written.getString("model")).isEqualTo("claude-sonnet-4-5");
        assertThat(written.getInteger("max_tokens")).isPositive(); // written as Anthropic
        assertThat(steps.get(2).upstream().provider().url()).isEqualTo("http://127.0.0.1:9/v1/chat/completions");
        assertThat(steps).extracting(step -> step.guard().name())
                .containsExactly("model:claude-sonnet-4", "model:claude-haiku-4", "model:gpt-4o-mini");
    }

    @Test
    void aCallerWithoutAnOutputLimitCrossingToClaudeIsGivenWhatTheModelWrites() {
        // claude-sonnet-4 goes upstream as claude-sonnet-4-5: 64 000 tokens of output; it stops at its window.
        assertThat(firstStepMaxTokens(runtime, GatewayHarness.openAiRequest("claude-sonnet-4", false))).isEqualTo(64_000);
        assertThat(firstStepMaxTokens(runtime, longPrompt("claude-sonnet-4", 198_000))).isEqualTo(64_000);

        JsonObject ownLimit = GatewayHarness.openAiRequest("claude-sonnet-4", false).put("max_tokens", 500);
        assertThat(firstStepMaxTokens(runtime, ownLimit)).as("the caller's own limit").isEqualTo(500);
    }

    @Test
    void aClaudeModelThatRefusesToOverrunItsWindowIsGivenTheRoomThePromptLeaves() {
        // Claude 3.7 Sonnet writes 64 000 tokens and refuses a prompt and max_tokens beyond its window of 200 000.
        AgentfuseRuntime older = AgentfuseRuntime.builder(ConfigLoader.parse(GatewayHarness.CONFIG
                + "  sonnet-3-7: { provider: anthropic, upstreamModel: claude-3-7-sonnet-20250219 }\n", "test.yaml",
                Map.of("MOCK_PORT", "9"))).build();
        assertThat(firstStepMaxTokens(older, GatewayHarness.openAiRequest("sonnet-3-7", false))).isEqualTo(64_000);

        // 170 000 characters, a token each by the default stage's count: the room the window leaves.
        JsonObject longPrompt = longPrompt("sonnet-3-7", 170_000);
        int room = firstStepMaxTokens(older, longPrompt);
        assertThat(room).isBetween(AnthropicRequestWriter.DEFAULT_MAX_TOKENS + 1, 30_000);
        assertThat(room + ContextStage.NONE.inputTokens(RequestParser.parse(Dialects.OPENAI, Buffer.buffer(longPrompt.encode()), null,
                older.config(), older::model).chat(), older.model("sonnet-3-7").orElseThrow())).isEqualTo(200_000);

        assertThat(firstStepMaxTokens(older, longPrompt("sonnet-3-7", 198_000))).as("never below the writer's default")
                .isEqualTo(AnthropicRequestWriter.DEFAULT_MAX_TOKENS);
    }

    @Test
    void aModelOfUnknownOutputLimitIsAskedTheWritersDefault() {
        AgentfuseRuntime house = AgentfuseRuntime.builder(ConfigLoader.parse(GatewayHarness.CONFIG
                + "  house: { provider: anthropic, upstreamModel: house-claude }\n", "test.yaml", Map.of("MOCK_PORT", "9"))).build();
        ModelRouter router = new ModelRouter(house, List.of());
        ModelRequest request = RequestParser.parse(Dialects.OPENAI, Buffer.buffer(GatewayHarness.openAiRequest("house", false)
                .encode()), null, house.config(), house::model);

        JsonObject written = new JsonObject(router.plan(request, MultiMap.caseInsensitiveMultiMap()).steps().get(0).upstream().bytes());

        assertThat(written.getInteger("max_tokens")).isEqualTo(AnthropicRequestWriter.DEFAULT_MAX_TOKENS);
    }

    private static int firstStepMaxTokens(AgentfuseRuntime runtime, JsonObject openAiBody) {
        ModelRouter router = new ModelRouter(runtime, List.of());
        ModelRequest request = RequestParser.parse(Dialects.OPENAI, Buffer.buffer(openAiBody.encode()), null, runtime.config(), runtime::model);
        return new JsonObject(router.plan(request, MultiMap.caseInsensitiveMultiMap()).steps().get(0).upstream().bytes())
                .getInteger("max_tokens");
    }

    private static JsonObject longPrompt(String model, int chars) {
        JsonObject body = GatewayHarness.openAiRequest(model, false);
        body.getJsonArray("messages").getJsonObject(0).put("content", "x".repeat(chars));
        return body;
    }

    @Test
    void callersOfTwoDialectsOfOneModelEachReachItsProviderInTheirOwnDialect() {
        ModelRequest chat = request(Dialects.OPENAI, GatewayHarness.openAiRequest("gpt-4o-mini", false).encode());
        ModelRequest responses = request(Dialects.RESPONSES, "{\"model\":\"gpt-4o-mini\",\"input\":\"hi\"}");

        // Alternately, so that what the route keeps for one dialect is asked for by the other.
        for (int i = 0; i < 2; i++) {
            assertThat(router.plan(chat, MultiMap.caseInsensitiveMultiMap()).steps().get(0).upstream().provider().url())
                    .isEqualTo("http://127.0.0.1:9/v1/chat/completions");
            assertThat(router.plan(responses, MultiMap.caseInsensitiveMultiMap()).steps().get(0).upstream().provider().url())
                    .isEqualTo("http://127.0.0.1:9/v1/responses");
        }
        assertThat(router.plan(chat, MultiMap.caseInsensitiveMultiMap()).route())
                .isSameAs(router.plan(responses, MultiMap.caseInsensitiveMultiMap()).route());
    }

    @Test
    void afterAReloadTheChainIsTheNewConfigurations() {
        ModelRequest request = request(Dialects.OPENAI, GatewayHarness.openAiRequest("claude-sonnet-4", false).encode());
        router.plan(request, MultiMap.caseInsensitiveMultiMap()).steps();

        runtime.reload(ConfigLoader.parse(GatewayHarness.CONFIG.replace("fallbacks: [claude-haiku-4, gpt-4o-mini]",
                "fallbacks: [gpt-4o-mini]"), "test.yaml", Map.of("MOCK_PORT", "9")));

        assertThat(router.plan(request, MultiMap.caseInsensitiveMultiMap()).steps()).extracting(PlannedStep::name)
                .containsExactly("claude-sonnet-4", "gpt-4o-mini");
    }

    @Test
    void aStepInTheCallersDialectSendsTheCallersBytesWithOnlyTheModelReplaced() {
        String body = GatewayHarness.anthropicRequest("claude-sonnet-4", false).encode();
        ModelRequest request = request(Dialects.ANTHROPIC, body);

        List<PlannedStep> steps = router.plan(request, MultiMap.caseInsensitiveMultiMap()).steps();

        String sent = steps.get(0).upstream().bytes().toString();
        assertThat(sent).isEqualTo(body.replace("\"model\":\"claude-sonnet-4\"", "\"model\":\"claude-sonnet-4-5\""));
        assertThat(new JsonObject(steps.get(2).upstream().bytes()).getString("model")).as("written in the other dialect")
                .isEqualTo("gpt-4o-mini");
    }

    /**
     * Every attempt of a step sends the bytes its first encoded: a retried crossing of a turn with a
     * screenshot encoded its megabytes again for each attempt.
     */
    @Test
    void aTranslatedStepIsEncodedOnceForAllItsAttempts() {
        String screenshot = "iVBORw0KGgo" + "q83+/Z0a".repeat(160 * 1024); // about 1.3 MB of base64
        String body = "{\"model\": \"claude-sonnet-4\", \"max_tokens\": 64, \"messages\": [{\"role\": \"user\","
                + " \"content\": [{\"type\": \"image\", \"source\": {\"type\": \"base64\", \"media_type\": \"image/png\","
                + " \"data\": \"" + screenshot + "\"}}]}]}";
        PlannedStep openAi = router.plan(request(Dialects.ANTHROPIC, body), MultiMap.caseInsensitiveMultiMap()).steps().get(2);

        long before = allocatedByThisThread();
        Buffer first = openAi.upstream().bytes();
        long firstAttempt = allocatedByThisThread() - before;
        before = allocatedByThisThread();
        Buffer second = openAi.upstream().bytes();
        long secondAttempt = allocatedByThisThread() - before;

        assertThat(first.toString().contains("\"url\":\"data:image/png;base64," + screenshot + "\""))
                .as("the screenshot's data URL, for OpenAI").isTrue();
        assertThat(second).as("the first attempt's bytes").isSameAs(first);
        assertThat(firstAttempt).as("bytes allocated to write and encode it").isGreaterThan(screenshot.length());
        assertThat(secondAttempt).as("bytes allocated for the next attempt").isLessThan(screenshot.length() / 100);
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    @Test
    void aStepThatCannotTakeTheRequestIsPlannedAsSkippedWithTheReason() {
        ModelRequest request = request(Dialects.OPENAI,
                GatewayHarness.openAiRequest("claude-sonnet-4", false).put("logprobs", true).encode());

        List<PlannedStep> steps = router.plan(request, MultiMap.caseInsensitiveMultiMap()).steps();

        assertThat(steps.get(0).upstream()).isNull();
        assertThat(steps.get(0).skipReason()).contains("logprobs");
        assertThat(steps.get(2).skipReason()).isNull();
    }

    /**
     * A step's request is written when the chain first asks for it, not for every planned step: an
     * OpenAI caller's 150 KB conversation with an unused Anthropic fallback was translated (and fitted
     * to the fallback's window) on every request, 130 µs of its CPU.
     */
    @Test
    void aFallbacksRequestIsWrittenOnlyWhenTheChainReachesIt() {
        ModelRequest request = request(Dialects.OPENAI, GatewayHarness.openAiRequest("claude-sonnet-4", false).encode());
        List<String> fitted = new ArrayList<>();
        ContextStage context = new ContextStage() {
            @Override
            public Future<ModelRequest> apply(ModelRequest modelRequest) {
                return Future.succeededFuture(modelRequest);
            }

            @Override
            public ChatRequest fitForFallback(ChatRequest chat, ModelConfig requested, ModelConfig step) {
                fitted.add(step.name());
                return chat;
            }
        };

        List<PlannedStep> steps = router.plan(request, MultiMap.caseInsensitiveMultiMap(), context).steps();

        assertThat(fitted).as("fitted while planned").isEmpty();
        assertThat(steps.get(2).skipReason()).isNull();
        assertThat(steps.get(2).upstream().bytes().toString()).contains("gpt-4o-mini");
        assertThat(fitted).as("fitted once, when asked").containsExactly("gpt-4o-mini");
        assertThat(steps.get(1).toString()).contains("not written");
    }

    @Test
    void forwardsAnthropicBetaToAnthropicProvidersButNeverTheCallersCredentials() {
        ModelRequest request = request(Dialects.ANTHROPIC, GatewayHarness.anthropicRequest("claude-sonnet-4", false).encode());
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .add("anthropic-beta", "tools-2024").add("x-api-key", "caller").add("authorization", "Bearer caller");

        List<PlannedStep> steps = router.plan(request, headers).steps();

        assertThat(steps.get(0).upstream().headers()).containsExactly(Map.entry("anthropic-beta", "tools-2024"));
        assertThat(steps.get(2).upstream().headers()).isEmpty();
    }
}
