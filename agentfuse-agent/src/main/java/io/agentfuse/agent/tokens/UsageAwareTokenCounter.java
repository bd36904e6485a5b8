package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import java.util.Objects;

/**
 * Treats the provider's reported {@code usage} as the truth and estimates only what came after.
 *
 * <p>After each model call, report the conversation that was sent and the prompt tokens the
 * provider billed for it with {@link #recordPromptTokens(Conversation, int)}. Counting a
 * conversation that starts with that recorded one then answers the reported number plus the
 * base counter's count of the messages added since. Anything else (a conversation that was
 * compacted, or one from another session) falls back to the base counter. The reported number
 * already includes what no local counter can see, such as tool definitions and provider framing.
 *
 * <p>Thread-safe: the last report is replaced atomically. Keep one instance per session.
 *
 * <pre>{@code
 * UsageAwareTokenCounter counter = new UsageAwareTokenCounter(TokenCounter.forModel("claude-sonnet-4"));
 * counter.recordPromptTokens(sent, response.usage().inputTokens());
 * int next = counter.countConversation(sent.append(reply).append(nextQuestion));
 * }</pre>
 */
public final class UsageAwareTokenCounter implements TokenCounter {

    private final TokenCounter base;
    private volatile Reported reported;

    /** @param base the counter for text and for conversations no report covers */
    public UsageAwareTokenCounter(TokenCounter base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    /**
     * Records that the provider billed {@code promptTokens} input tokens for {@code prompt}.
     *
     * @throws IllegalArgumentException if {@code promptTokens} is negative
     */
    public void recordPromptTokens(Conversation prompt, int promptTokens) {
        Objects.requireNonNull(prompt, "prompt");
        if (promptTokens < 0) {
            throw new IllegalArgumentException("promptTokens must be >= 0, but was " + promptTokens);
        }
        reported = new Reported(prompt, promptTokens);
    }

    @Override
    public int countText(String text) {
        return base.countText(text);
    }

    @Override
    public int countMessage(Message message) {
        return base.countMessage(message);
    }

    /**
     * The reported prompt tokens plus the base count of every later message, when
     * {@code conversation} starts with the last reported prompt; the base count otherwise.
     */
    @Override
    public int countConversation(Conversation conversation) {
        Reported last = reported;
        if (last == null || !conversation.startsWith(last.prompt)) {
            return base.countConversation(conversation);
        }
        int tokens = last.promptTokens;
        for (Message added : conversation.after(last.prompt.size())) {
            tokens += base.countMessage(added);
        }
        return tokens;
    }

    @Override
    public ImageAccounting imageAccounting() {
        return base.imageAccounting();
    }

    @Override
    public int upperBoundText(String text) {
        return base.upperBoundText(text);
    }

    @Override
    public int upperBoundMessage(Message message) {
        return base.upperBoundMessage(message);
    }

    /** As {@link #countConversation}, with the base's bounds for what the report does not cover. */
    @Override
    public int upperBoundConversation(Conversation conversation) {
        Reported last = reported;
        if (last == null || !conversation.startsWith(last.prompt)) {
            return base.upperBoundConversation(conversation);
        }
        int tokens = last.promptTokens;
        for (Message added : conversation.after(last.prompt.size())) {
            tokens += base.upperBoundMessage(added);
        }
        return tokens;
    }

    private record Reported(Conversation prompt, int promptTokens) {
    }
}
