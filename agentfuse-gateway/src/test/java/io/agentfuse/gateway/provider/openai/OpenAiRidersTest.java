package io.agentfuse.gateway.provider.openai;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.gateway.context.ConversationMapper;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Chat Completions request rewritten in its own dialect with some of its messages left out, as
 * compaction leaves them: a {@code system} or {@code developer} message (leading or later) and a
 * legacy {@code function} message go, or stay, with the message they ride with, and the
 * developer's words are said once.
 */
class OpenAiRidersTest {

    private static final JsonObject SYSTEM = message("system", "Be brief.");
    private static final JsonObject FIRST = message("user", "Plan the trip.");
    private static final JsonObject DEVELOPER = message("developer", "Answer in French.");
    private static final JsonObject CALL = new JsonObject().put("role", "assistant").putNull("content")
            .put("function_call", new JsonObject().put("name", "weather").put("arguments", "{}"));
    private static final JsonObject RESULT = new JsonObject().put("role", "function").put("name", "weather").put("content", "sunny");
    private static final JsonObject LAST = message("user", "And tomorrow?");

    private static JsonObject message(String role, String content) {
        return new JsonObject().put("role", role).put("content", content);
    }

    /** The messages sent for the request of {@code sent} after its neutral messages that {@code dropped} names are left out. */
    private static JsonArray rewritten(Predicate<Integer> dropped, JsonObject... sent) {
        ChatRequest request = Dialects.OPENAI.parseRequest(new JsonObject().put("model", "m").put("messages", new JsonArray(List.of((Object[]) sent))));
        Conversation measured = ConversationMapper.toConversation(request);
        List<Message> all = measured.messages();
        int first = all.size() - request.messages().size();
        List<Message> kept = new ArrayList<>(all.subList(0, first));
        for (int i = 0; i < request.messages().size(); i++) {
            if (!dropped.test(i)) {
                kept.add(all.get(first + i));
            }
        }
        return ConversationMapper.withConversation(request, measured, new Conversation(kept)).received().getJsonArray("messages");
    }

    @Test
    void givenEveryMessageKeptWhenRewrittenThenEachElementIsWhereTheCallerPutIt() {
        assertThat(rewritten(i -> false, SYSTEM, FIRST, CALL, RESULT, DEVELOPER, LAST))
                .containsExactly(SYSTEM, FIRST, CALL, RESULT, DEVELOPER, LAST);
    }

    @Test
    void givenTheMessageADeveloperMessageRidesWithLeftOutWhenRewrittenThenItsWordsStayInTheSystemPrompt() {
        // FIRST, CALL (with RESULT), LAST (with DEVELOPER before it): LAST left out
        JsonArray sent = rewritten(i -> i == 2, SYSTEM, FIRST, CALL, RESULT, DEVELOPER, LAST);

        assertThat(sent).containsExactly(message("system", "Be brief.\n\nAnswer in French."), FIRST, CALL, RESULT);
    }

    @Test
    void givenTheCallLeftOutWhenRewrittenThenItsFunctionResultGoesWithIt() {
        assertThat(rewritten(i -> i == 1, SYSTEM, FIRST, CALL, RESULT, DEVELOPER, LAST))
                .containsExactly(SYSTEM, FIRST, DEVELOPER, LAST);
    }

    @Test
    void givenLeadingSystemMessagesWithRolesNamesAndPartsWhenRewrittenThenEachGoesAsSent() {
        JsonObject developer = new JsonObject().put("role", "developer").put("content", new JsonArray()
                .add(new JsonObject().put("type", "text").put("text", "Use metric units.")));
        JsonObject named = message("system", "Be brief.").put("name", "house_rules");

        assertThat(rewritten(i -> false, developer, named, FIRST, CALL, RESULT, DEVELOPER, LAST))
                .containsExactly(developer, named, FIRST, CALL, RESULT, DEVELOPER, LAST);
    }

    @Test
    void givenTheFirstMessageLeftOutWhenRewrittenThenTheLeadingSystemMessagesWordsStayInTheSystemPrompt() {
        JsonObject developer = message("developer", "Use metric units.");

        assertThat(rewritten(i -> i == 0, developer, SYSTEM, FIRST, CALL, RESULT, DEVELOPER, LAST))
                .containsExactly(message("system", "Use metric units.\n\nBe brief."), CALL, RESULT, DEVELOPER, LAST);
    }

    @Test
    void givenOnlyLaterSystemMessagesWhenRewrittenThenNoLeadingSystemMessageIsMade() {
        assertThat(rewritten(i -> false, FIRST, DEVELOPER, LAST, message("system", "Be brief.")))
                .containsExactly(FIRST, DEVELOPER, LAST, message("system", "Be brief."));
    }
}
