package io.agentfuse.agent.context;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;

/** Conversations of known size, measured one token per character. */
final class ConversationFixtures {

    /** One token per character, plus the standard framing: a message of n characters is n + 3 tokens. */
    static final TokenCounter CHARACTERS = String::length;

    /** A window of 1 000 tokens: the default ladder starts at 700, 800, 920 and 950. */
    static final long WINDOW = 1_000;

    private ConversationFixtures() {
    }

    /** A message body that, framed, counts exactly {@code tokens} tokens. */
    static String body(int tokens) {
        return "x".repeat(tokens - TokenCounter.TOKENS_PER_MESSAGE);
    }

    /**
     * A 50-token system prompt and then {@code turns} turns, each a 30-token prompt and a 40-token
     * answer: 3 + 50 + 70 × turns tokens.
     */
    static Conversation systemAndTurns(int turns) {
        List<Message> messages = new ArrayList<>();
        messages.add(Message.system(body(50)));
        for (int turn = 1; turn <= turns; turn++) {
            messages.add(Message.user("turn " + turn + " " + body(30).substring(("turn " + turn + " ").length())));
            messages.add(Message.assistant(body(40)));
        }
        return new Conversation(messages);
    }
}
