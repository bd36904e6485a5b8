package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;

/**
 * Measures text, messages and whole conversations in a model's tokens.
 *
 * <p>Only {@link #countText(String)} is abstract; the framing around it follows OpenAI's
 * published accounting for chat models, which is also a fair upper bound for other providers:
 * {@value #TOKENS_PER_MESSAGE} tokens per message for the role and delimiters, and
 * {@value #TOKENS_PER_REPLY} tokens that prime the reply. Tool calls count their id, name and
 * input; tool results their id and content; {@link RawBlock}s their JSON.
 *
 * <p>Which counter to use, in order of trust:
 * <ol>
 *   <li>the provider's reported {@code usage}, through {@link UsageAwareTokenCounter};</li>
 *   <li>the model's own encoding, through {@link TiktokenCounter} (OpenAI models);</li>
 *   <li>an estimate with a safety margin, through {@link EstimatingTokenCounter} (all others).</li>
 * </ol>
 * {@link #forModel(String)} picks between the last two. Implementations must be thread-safe.
 *
 * <pre>{@code
 * TokenCounter counter = TokenCounter.forModel("gpt-4o");
 * int used = counter.countConversation(conversation);
 * TokenCounter forTests = String::length;   // one token per character
 * }</pre>
 */
@FunctionalInterface
public interface TokenCounter {

    /** Tokens that frame each message: role and delimiters. */
    int TOKENS_PER_MESSAGE = 3;

    /** Tokens that prime the model's reply to a conversation. */
    int TOKENS_PER_REPLY = 3;

    /** The tokens in {@code text}, special-token markers counted as ordinary text. */
    int countText(String text);

    /** The tokens of {@code message}, including its framing. */
    default int countMessage(Message message) {
        int tokens = TOKENS_PER_MESSAGE;
        for (ContentBlock block : message.content()) {
            tokens += countBlock(block);
        }
        return tokens;
    }

    /** The tokens of every message of {@code conversation}, plus the reply priming. */
    default int countConversation(Conversation conversation) {
        int tokens = TOKENS_PER_REPLY;
        for (Message message : conversation.messages()) {
            tokens += countMessage(message);
        }
        return tokens;
    }

    /** The tokens of one content block, without message framing. */
    default int countBlock(ContentBlock block) {
        if (block instanceof TextBlock text) {
            return countText(text.text());
        }
        if (block instanceof ToolUseBlock use) {
            return countText(use.id()) + countText(use.name()) + countText(use.inputJson());
        }
        if (block instanceof ToolResultBlock result) {
            return countText(result.toolUseId()) + countText(result.content());
        }
        return countText(((RawBlock) block).json());
    }

    /**
     * The best local counter for {@code model}: the exact encoding for OpenAI models
     * ({@code o200k_base} for the gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and o-series families,
     * {@code cl100k_base} for gpt-4 and gpt-3.5), and {@link EstimatingTokenCounter#standard()}
     * for every other model. A provider prefix such as {@code "openai/"} is ignored.
     */
    static TokenCounter forModel(String model) {
        return OpenAiEncodings.forModel(model)
                .<TokenCounter>map(TiktokenCounter::of)
                .orElseGet(EstimatingTokenCounter::standard);
    }
}
