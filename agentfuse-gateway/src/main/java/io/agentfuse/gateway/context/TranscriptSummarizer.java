package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.IntSupplier;

/**
 * A {@link Summarizer} that asks a model (the config's {@code context.compactModel}) to
 * summarise the older turns, given as a plain-text transcript, so that it works with a model of
 * either dialect.
 *
 * <p>The model is reached through a {@link Completion} function: in the gateway, a
 * non-streaming call through the compact model's own guarded route, with its breaker, retries
 * and fallbacks. Thread-safe if the function is.
 */
public final class TranscriptSummarizer implements Summarizer {

    /** The instruction sent as the system prompt. */
    static final String INSTRUCTION = "You compact the history of a conversation between a user and an AI assistant. "
            + "Write a faithful summary that keeps every fact, decision, open task, file name, identifier and tool "
            + "result the assistant still needs. Do not address the user; output only the summary.";

    private final Completion completion;
    private final IntSupplier outputLimit;

    /**
     * @param completion  sends one prompt to the compact model and returns its text
     * @param outputLimit the most tokens the compact model writes in an answer, asked at each summary
     */
    public TranscriptSummarizer(Completion completion, IntSupplier outputLimit) {
        this.completion = Objects.requireNonNull(completion, "completion");
        this.outputLimit = Objects.requireNonNull(outputLimit, "outputLimit");
    }

    /**
     * Asks for a summary of at most {@code maxTokens} (fewer than the older part holds, so that the
     * summary is smaller) or the compact model's output limit, whichever is less: a provider refuses a
     * {@code max_tokens} above its model's limit with 400, which is never retried, and the ladder
     * would snip instead. A summary so capped is still smaller than what it replaces.
     */
    @Override
    public CompletionStage<String> summarize(Conversation older, int maxTokens) {
        int limit = Math.max(1, Math.min(maxTokens, outputLimit.getAsInt()));
        String prompt = "Summarise this conversation in at most " + limit + " tokens.\n\n" + transcript(older);
        return completion.complete(INSTRUCTION, prompt, limit);
    }

    /** The conversation as text: one paragraph per message, tool calls and results marked. */
    static String transcript(Conversation conversation) {
        StringBuilder text = new StringBuilder();
        for (Message message : conversation.messages()) {
            text.append(message.role().name().toLowerCase(Locale.ROOT)).append(": ");
            for (ContentBlock block : message.content()) {
                text.append(describe(block)).append('\n');
            }
            text.append('\n');
        }
        return text.toString();
    }

    private static String describe(ContentBlock block) {
        if (block instanceof TextBlock textBlock) {
            return textBlock.text();
        }
        if (block instanceof ToolUseBlock use) {
            return "[called tool " + use.name() + " with " + use.inputJson() + "]";
        }
        if (block instanceof ToolResultBlock result) {
            StringBuilder attached = new StringBuilder();
            for (RawBlock attachment : result.attachments()) {
                attached.append(" [").append(attachment.type()).append(']');
            }
            return "[tool " + (result.isError() ? "failed" : "returned") + ": " + result.content() + attached + "]";
        }
        return "[" + ((RawBlock) block).type() + "]";
    }

    /** Sends one prompt to a model and completes with its answer's text. */
    @FunctionalInterface
    public interface Completion {
        /**
         * @param systemPrompt the instruction
         * @param userText     the prompt
         * @param maxTokens    the answer's token limit
         */
        CompletionStage<String> complete(String systemPrompt, String userText, int maxTokens);
    }
}
