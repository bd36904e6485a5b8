package io.agentfuse.langchain4j;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A {@link Summarizer} that asks a LangChain4j {@link ChatModel} (a cheap one, the config's
 * {@code compactModel}) to summarise older turns. The call runs on an executor, so the compactor's
 * timeout can give up on it; any failure of the model (or a guarded model's
 * {@link AllModelsFailedException}) fails the summary, and the compactor rolls back and snips.
 * Thread-safe if the model is.
 *
 * <pre>{@code
 * Summarizer summarizer = ChatModelSummarizer.of(fuse.chatModel("claude-haiku-4", models::get));
 * }</pre>
 */
public final class ChatModelSummarizer implements Summarizer {

    private static final ExecutorService SHARED = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "agentfuse-summarizer");
        thread.setDaemon(true);
        return thread;
    });

    private final ChatModel model;
    private final Executor executor;

    private ChatModelSummarizer(ChatModel model, Executor executor) {
        this.model = Objects.requireNonNull(model, "model");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** Summaries by {@code model}, called on a shared pool of daemon threads. */
    public static ChatModelSummarizer of(ChatModel model) {
        return new ChatModelSummarizer(model, SHARED);
    }

    /** Summaries by {@code model}, called on {@code executor}. */
    public static ChatModelSummarizer of(ChatModel model, Executor executor) {
        return new ChatModelSummarizer(model, executor);
    }

    @Override
    public CompletionStage<String> summarize(Conversation older, int maxTokens) {
        StringBuilder transcript = new StringBuilder();
        for (Message message : older.messages()) {
            transcript.append(message.role().name().toLowerCase(Locale.ROOT)).append(": ")
                    .append(message.text()).append('\n');
        }
        SystemMessage instruction = SystemMessage.from("Summarise the conversation below in at most " + maxTokens
                + " tokens. Keep facts, decisions, open tasks and tool results the rest of the conversation may need.");
        return CompletableFuture.supplyAsync(
                () -> model.chat(instruction, UserMessage.from(transcript.toString())).aiMessage().text(), executor);
    }
}
