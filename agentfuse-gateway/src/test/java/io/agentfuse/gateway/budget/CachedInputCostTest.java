package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cost budget prices the input a provider read from or wrote to its prompt cache at the vendor's
 * price of each, as the provider reported it, in every dialect and whether the answer streams or
 * not. An agent like Claude Code or Codex reads most of its input from the cache on every turn:
 * counted at the input price, a $50 budget stopped it after about $8 of real spend. A token budget
 * still counts every token read.
 */
class CachedInputCostTest {

    /**
     * A Claude Code-like turn: 100 000 tokens in, of which 95 000 read from the cache and 2 000 written
     * to it (5 minutes), 1 000 out.
     */
    private static final MockStep CACHED_TURN = MockStep.builder().inputTokens(100_000).cacheReadTokens(95_000)
            .cacheWriteTokens(2_000).outputTokens(1_000).build();

    /** The same turn as OpenAI reports one: 95 000 of the prompt's tokens cached (it bills no write). */
    private static final MockStep OPENAI_CACHED_TURN = MockStep.builder().inputTokens(100_000).cacheReadTokens(95_000)
            .outputTokens(1_000).build();

    // claude-sonnet-4-5, $3 in / $15 out, a cache read $0.30 (0.1x), a write $3.75 (1.25x), per million:
    // 3 000 uncached x 3 + 95 000 x 0.30 + 2 000 x 3.75 + 1 000 x 15 = 9 000 + 28 500 + 7 500 + 15 000 µ$
    // = $0.06; at the input price alone it was 100 000 x 3 + 15 000 µ$ = $0.315.
    private static final String CLAUDE_TURN_USD = "0.06";

    // gpt-5, $1.25 in / $10 out, cached input $0.125 (90 % off), per million:
    // 5 000 x 1.25 + 95 000 x 0.125 + 1 000 x 10 = 6 250 + 11 875 + 10 000 µ$ = $0.028125 (was $0.135).
    private static final String GPT5_TURN_USD = "0.028125";

    private GatewayHarness gateway;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
                budgets:
                  dollars: { scope: global, cost: 50 }
                  tokens: { scope: global, tokens: 10000000 }
                """);
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void aClaudeTurnReadMostlyFromTheCacheSpendsWhatAnthropicBillsForIt() {
        gateway.mock.defaultStep(CACHED_TURN);

        Reply reply = gateway.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(spentUsd("dollars")).isEqualByComparingTo(CLAUDE_TURN_USD);
        assertThat(spentTokens("tokens")).as("a token budget counts every token read").isEqualTo(101_000);
    }

    @Test
    void aStreamedClaudeTurnReadMostlyFromTheCacheSpendsWhatAnthropicBillsForIt() {
        gateway.mock.defaultStep(CACHED_TURN);

        StreamReply stream = gateway.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());

        assertThat(stream.status()).isEqualTo(200);
        assertThat(spentUsd("dollars")).isEqualByComparingTo(CLAUDE_TURN_USD);
        assertThat(spentTokens("tokens")).isEqualTo(101_000);
    }

    @Test
    void aGpt5TurnReadMostlyFromTheCacheSpendsWhatOpenAiBillsForIt() {
        gateway.mock.defaultStep(OPENAI_CACHED_TURN);

        Reply reply = gateway.client.post("/v1/chat/completions", openAiRequest("gpt-5", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(spentUsd("dollars")).isEqualByComparingTo(GPT5_TURN_USD);
        assertThat(spentTokens("tokens")).isEqualTo(101_000);
    }

    @Test
    void aStreamedGpt5TurnReadMostlyFromTheCacheSpendsWhatOpenAiBillsForIt() {
        gateway.mock.defaultStep(OPENAI_CACHED_TURN);

        StreamReply stream = gateway.client.stream("/v1/chat/completions", openAiRequest("gpt-5", true)
                .put("stream_options", new JsonObject().put("include_usage", true)), Map.of());

        assertThat(stream.status()).isEqualTo(200);
        assertThat(spentUsd("dollars")).isEqualByComparingTo(GPT5_TURN_USD);
    }

    @Test
    void aCodexTurnOnTheResponsesApiReadMostlyFromTheCacheSpendsWhatOpenAiBillsForIt() {
        gateway.mock.defaultStep(OPENAI_CACHED_TURN);
        JsonObject request = new JsonObject().put("model", "gpt-5").put("input", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Hi")));

        Reply reply = gateway.client.post("/v1/responses", request);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(spentUsd("dollars")).isEqualByComparingTo(GPT5_TURN_USD);
    }

    @Test
    void aClaudeTurnAnsweredToAnOpenAiCallerTellsItsCachedTokensInOpenAisWords() {
        gateway.mock.defaultStep(CACHED_TURN);

        Reply reply = gateway.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        JsonObject usage = reply.json().getJsonObject("usage");
        assertThat(usage.getLong("prompt_tokens")).isEqualTo(100_000);
        assertThat(usage.getJsonObject("prompt_tokens_details").getLong("cached_tokens")).isEqualTo(95_000);
        assertThat(spentUsd("dollars")).isEqualByComparingTo(CLAUDE_TURN_USD);
    }

    private BigDecimal spentUsd(String budget) {
        return new BigDecimal(String.valueOf(spent(budget).getValue("cost")));
    }

    private long spentTokens(String budget) {
        return spent(budget).getLong("tokens");
    }

    private JsonObject spent(String budget) {
        JsonObject list = gateway.client.get("/admin/budgets").json();
        return list.getJsonArray("budgets").stream().map(JsonObject.class::cast)
                .filter(each -> each.getString("name").equals(budget)).findFirst().orElseThrow()
                .getJsonArray("windows").getJsonObject(0).getJsonObject("spent");
    }
}
