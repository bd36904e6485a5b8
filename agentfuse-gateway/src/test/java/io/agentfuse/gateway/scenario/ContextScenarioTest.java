package io.agentfuse.gateway.scenario;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context ladder end to end: a real gateway in front of a mock provider, the compact model
 * being a model of the same mock.
 */
class ContextScenarioTest {

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
              compactor: { provider: openai, upstreamModel: gpt-4o-mini }
            context:
              compactModel: compactor
              keepRecentTurns: 2
            """;
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
    void aConversationAtSeventyPercentIsSentAsItIsWithAWarning() {
        JsonArray messages = conversationAt(0.74);

        Reply reply = ask(messages);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("WARNING");
        assertThat(sentTo("gpt-4o").getJsonArray("messages")).isEqualTo(messages);
    }

    @Test
    void atAutoCompactTheCompactModelSummarisesTheOlderTurnsAndTheSummaryIsWhatGoesUpstream() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("Summary: steps 1 to 9 are planned.").build());

        Reply reply = ask(conversationAt(0.86));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).startsWith("AUTO_COMPACT; action=SUMMARY; summary=SUCCEEDED");
        assertThat(sentTo("gpt-4o-mini").encode()).contains("Summarise this conversation");
        assertThat(sentTo("gpt-4o").encode()).contains("Summary: steps 1 to 9 are planned.");
    }

    @Test
    void aFailingCompactModelIsRolledBackAndTheRequestIsSnippedInstead() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(500).build());
        JsonArray messages = conversationAt(0.86);

        Reply reply = ask(messages);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).startsWith("AUTO_COMPACT; action=SNIP; summary=FAILED");
        JsonArray sent = sentTo("gpt-4o").getJsonArray("messages");
        assertThat(sent.size()).isLessThan(messages.size());
        assertThat(sent.getJsonObject(0)).isEqualTo(messages.getJsonObject(0)); // the system prompt stays
        assertThat(sent.encode()).contains("[agentfuse]");
    }

    @Test
    void aRequestThatCannotFitIsRefusedWith413ContextWindowFullWithoutAnUpstreamCall() {
        JsonArray huge = new JsonArray().add(new JsonObject().put("role", "user").put("content", words(WINDOW + 500)));

        Reply reply = ask(huge);

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aFallbackModelWithASmallerWindowGetsTheRequestSnippedForItsOwnWindow() {
        // Given the requested model down, and a conversation that fits it but not the fallback's window
        harness.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        JsonArray messages = conversationAt(0.60);

        // When the chain falls back
        Reply reply = ask(messages);

        // Then the fallback answered a copy snipped to fit its 1500-token window
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("tiny");
        JsonArray sent = sentTo("gpt-4o-tiny").getJsonArray("messages");
        assertThat(sent.size()).isLessThan(messages.size());
        assertThat(sent.encode()).contains("[agentfuse]");
    }

    private Reply ask(JsonArray messages) {
        return harness.client.post("/v1/chat/completions", new JsonObject().put("model", "notes").put("messages", messages));
    }

    private JsonObject sentTo(String upstreamModel) {
        List<RecordedRequest> requests = harness.mock.requests().stream()
                .filter(request -> request.jsonBody().map(body -> upstreamModel.equals(body.getString("model"))).orElse(false))
                .toList();
        assertThat(requests).as("requests for " + upstreamModel).isNotEmpty();
        return requests.get(requests.size() - 1).jsonBody().orElseThrow();
    }

    /** A conversation of many turns that fills at least {@code share} of the window, ending with a prompt. */
    private static JsonArray conversationAt(double share) {
        List<Message> measured = new ArrayList<>();
        JsonArray messages = new JsonArray();
        String system = "You plan database migrations.";
        measured.add(Message.system(system));
        messages.add(new JsonObject().put("role", "system").put("content", system));
        for (int turn = 1; ; turn++) {
            boolean user = turn % 2 == 1;
            String text = "Step " + turn + ": " + words(30);
            measured.add(user ? Message.user(text) : Message.assistant(text));
            messages.add(new JsonObject().put("role", user ? "user" : "assistant").put("content", text));
            if (user && COUNTER.countConversation(new Conversation(measured)) >= share * WINDOW) {
                return messages;
            }
        }
    }

    private static String words(int count) {
        return "backfill replica ".repeat(count / 2 + 1).trim();
    }
}
