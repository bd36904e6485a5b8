package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tools an agent offers are prompt: the provider reads their definitions on every turn, and an
 * agent's are large (Claude Code's run to tens of thousands of tokens). The context ladder counts them
 * and never compacts them: a conversation at 75 % of a 200 000-token window by its messages, with
 * tools of 80 000 tokens, was let through whole and refused by the provider as too long; now its older
 * turns are compacted and the provider takes it, with its tools as sent.
 */
class ToolDefinitionsCountScenarioTest {

    /** " cat" is one token of cl100k and four chars, which the mock counts as one token too. */
    private static final String WORD = "cat ";
    private static final String CONFIG = GatewayHarness.CONFIG.replace("maxBodySize: 16KB", "maxBodySize: 4MB");

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
    void aConversationThatFitsOnlyWithoutItsToolsIsCompactedAndTheProviderTakesIt() {
        // 20 turns of 6 500 words: 130 000 tokens of cl100k, 149 500 as the gateway counts Claude (75 %)
        JsonArray messages = new JsonArray();
        for (int turn = 0; turn < 20; turn++) {
            messages.add(new JsonObject().put("role", turn % 2 == 0 ? "user" : "assistant")
                    .put("content", "turn " + turn + ": " + WORD.repeat(6_500)));
        }
        messages.add(new JsonObject().put("role", "user").put("content", "And now?"));
        // a tool of 80 000 words: with it the prompt is some 210 000 tokens, past Haiku 4.5's 200 000
        JsonArray tools = new JsonArray().add(new JsonObject().put("name", "Bash")
                .put("description", "Runs a command. " + WORD.repeat(80_000))
                .put("input_schema", new JsonObject().put("type", "object").put("properties",
                        new JsonObject().put("command", new JsonObject().put("type", "string")))));
        JsonObject body = new JsonObject().put("model", "claude-haiku-4-5").put("max_tokens", 100)
                .put("messages", messages).put("tools", tools);

        Reply reply = harness.client.post("/v1/messages", body, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("REJECT"); // 120 % counted: snipped until it fits
        List<RecordedRequest> sent = harness.mock.requests();
        assertThat(sent).hasSize(1);
        JsonObject upstream = sent.get(0).jsonBody().orElseThrow();
        assertThat(upstream.getJsonArray("tools")).isEqualTo(tools);
        assertThat(upstream.getJsonArray("messages").size()).isLessThan(messages.size());
        assertThat(upstream.getJsonArray("messages").getJsonObject(upstream.getJsonArray("messages").size() - 1)
                .getString("content")).isEqualTo("And now?");
        assertThat(String.valueOf(upstream.getValue("system"))).doesNotContain("Runs a command.");
    }

    @Test
    void countTokensCountsTheToolsOffered() {
        JsonObject question = new JsonObject().put("model", "claude-haiku-4-5").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "hello")));
        JsonObject withTools = question.copy().put("tools", new JsonArray().add(new JsonObject().put("name", "Read")
                .put("description", WORD.repeat(1_000)).put("input_schema", new JsonObject().put("type", "object"))));

        long without = harness.client.post("/v1/messages/count_tokens", question, Map.of()).json().getLong("input_tokens");
        long with = harness.client.post("/v1/messages/count_tokens", withTools, Map.of()).json().getLong("input_tokens");

        assertThat(with - without).as("a thousand words of description, and the tool's name and schema")
                .isBetween(1_000L, 1_300L);
    }

    @Test
    void claudeCodesOwnToolsCountAsTheThousandsOfTokensTheyAre() throws java.io.IOException {
        // Claude Code's request as it sent it: twelve tools, 32 KB of their JSON
        JsonObject captured;
        try (java.io.InputStream in = getClass().getResourceAsStream("/agent-requests/claude-code-2.1.332.json")) {
            captured = new JsonObject(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).getJsonObject("body");
        }
        JsonObject withoutTools = captured.copy();
        withoutTools.remove("tools");

        long with = harness.client.post("/v1/messages/count_tokens", captured, Map.of()).json().getLong("input_tokens");
        long without = harness.client.post("/v1/messages/count_tokens", withoutTools, Map.of()).json().getLong("input_tokens");

        assertThat(captured.getJsonArray("tools")).hasSize(12);
        assertThat(with - without).as("the tools' names, descriptions and schemas").isGreaterThan(6_000);
    }
}
