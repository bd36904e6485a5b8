package io.agentfuse.gateway.scenario;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the context-ladder scenarios of every dialect share: the models ({@code notes}, a 3 000-token
 * window falling back to {@code tiny}, 1 500 tokens), conversations that fill a given share of the
 * window as the gateway counts them, and the body last sent upstream for a model.
 */
final class LadderConversations {

    static final int WINDOW = 3_000;
    static final String SYSTEM_PROMPT = "You plan database migrations.";
    /** The gateway's configuration without its {@code context} section. */
    static final String CONFIG = """
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
    private static final TokenCounter COUNTER = TokenCounter.forModel("gpt-4o");

    private LadderConversations() {
    }

    /**
     * Turns (user and assistant in alternation, ending with a user turn) that, after the system
     * prompt {@link #SYSTEM_PROMPT}, fill at least {@code share} of {@link #WINDOW}.
     */
    static JsonArray turnsAt(double share) {
        List<Message> measured = new ArrayList<>();
        measured.add(Message.system(SYSTEM_PROMPT));
        JsonArray turns = new JsonArray();
        for (int turn = 1; ; turn++) {
            boolean user = turn % 2 == 1;
            String text = "Step " + turn + ": " + words(30);
            measured.add(user ? Message.user(text) : Message.assistant(text));
            turns.add(new JsonObject().put("role", user ? "user" : "assistant").put("content", text));
            if (user && COUNTER.countConversation(new Conversation(measured)) >= share * WINDOW) {
                return turns;
            }
        }
    }

    /** About {@code count} words of migration talk. */
    static String words(int count) {
        return "backfill replica ".repeat(count / 2 + 1).trim();
    }

    /** The body of the last request {@code mock} received for {@code upstreamModel}; fails if there was none. */
    static JsonObject lastSentTo(MockProvider mock, String upstreamModel) {
        List<RecordedRequest> requests = mock.requestsFor(upstreamModel);
        assertThat(requests).as("requests for " + upstreamModel).isNotEmpty();
        return requests.get(requests.size() - 1).jsonBody().orElseThrow();
    }
}
