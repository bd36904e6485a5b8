package io.agentfuse.gateway.scenario;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context ladder for Responses callers: the level in {@code x-agentfuse-context}, a snipped
 * conversation written back into the body's {@code input} and {@code instructions} (every other
 * field as sent), and 413 when nothing fits.
 */
class ResponsesContextScenarioTest {

    private static final int WINDOW = 3_000;
    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              openai: { baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-test" }
            retry: { maxAttempts: 1 }
            models:
              notes:
                provider: openai
                upstreamModel: gpt-4o
                contextWindow: 3000
                fallbacks: [tiny]
              tiny: { provider: openai, upstreamModel: gpt-4o-tiny, contextWindow: 1500 }
            """;
    private static final String INSTRUCTIONS = "You plan database migrations.";
    private static final TokenCounter COUNTER = TokenCounter.forModel("gpt-4o");

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
    void aConversationAtSeventyPercentIsForwardedAsItIsWithAWarning() {
        JsonArray input = conversationAt(0.74);

        Reply reply = ask(input);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("WARNING");
        assertThat(sentTo("gpt-4o").getJsonArray("input")).isEqualTo(input);
    }

    @Test
    void aFallbackWithASmallerWindowGetsTheInputSnippedAndTheOtherFieldsAsSent() {
        harness.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        JsonArray input = conversationAt(0.60);

        Reply reply = ask(input);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("tiny");
        assertThat(reply.header("x-agentfuse-context")).isNotNull();
        JsonObject sent = sentTo("gpt-4o-tiny");
        assertThat(sent.getJsonArray("input").size()).isLessThan(input.size());
        assertThat(sent.getJsonArray("input").encode()).contains("[agentfuse]");
        assertThat(sent.getString("instructions")).isEqualTo(INSTRUCTIONS);
        assertThat(sent.getJsonObject("metadata")).isEqualTo(new JsonObject().put("run", "r1"));
        assertThat(sent.containsKey("messages")).isFalse();
    }

    @Test
    void anInputThatCannotFitIsRefusedWith413WithoutAnUpstreamCall() {
        JsonArray huge = new JsonArray().add(new JsonObject().put("role", "user").put("content", words(WINDOW + 500)));

        Reply reply = ask(huge);

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requests()).isEmpty();
    }

    private Reply ask(JsonArray input) {
        return harness.client.post("/v1/responses", new JsonObject().put("model", "notes").put("instructions", INSTRUCTIONS)
                .put("metadata", new JsonObject().put("run", "r1")).put("input", input));
    }

    private JsonObject sentTo(String upstreamModel) {
        List<RecordedRequest> requests = harness.mock.requests().stream()
                .filter(request -> request.jsonBody().map(body -> upstreamModel.equals(body.getString("model"))).orElse(false))
                .toList();
        assertThat(requests).as("requests for " + upstreamModel).isNotEmpty();
        return requests.get(requests.size() - 1).jsonBody().orElseThrow();
    }

    /** Input items of many turns that fill at least {@code share} of the window, ending with a user turn. */
    private static JsonArray conversationAt(double share) {
        List<Message> measured = new ArrayList<>();
        measured.add(Message.system(INSTRUCTIONS));
        JsonArray input = new JsonArray();
        for (int turn = 1; ; turn++) {
            boolean user = turn % 2 == 1;
            String text = "Step " + turn + ": " + words(30);
            measured.add(user ? Message.user(text) : Message.assistant(text));
            input.add(new JsonObject().put("role", user ? "user" : "assistant").put("content", text));
            if (user && COUNTER.countConversation(new Conversation(measured)) >= share * WINDOW) {
                return input;
            }
        }
    }

    private static String words(int count) {
        return "backfill replica ".repeat(count / 2 + 1).trim();
    }
}
