package io.agentfuse.agent.context.internal;

import io.agentfuse.agent.context.InvalidSummaryException;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * One try at replacing a conversation's older turns with a summary, bounded by a timeout.
 *
 * <p>The older part is every message before the last {@code keepRecentTurns} turns, except
 * anchored groups (system, pinned, and their tool partners) and groups that reach into the
 * recent turns. {@link #run(OlderPart)} either completes with a new conversation in which a valid
 * summary replaced that part, or fails with the reason ({@link InvalidSummaryException},
 * {@link CallTimeoutException}, or the summariser's own error); the conversation given is never
 * modified, since it is immutable. Thread-safe.
 *
 * <p>Not part of the public API: it may change without notice.
 */
public final class SummaryAttempt {

    /** Introduces the summary to the model that reads it. */
    public static final String SUMMARY_PREFIX = "[agentfuse] Summary of the earlier conversation:\n";

    private final Summarizer summarizer;
    private final TokenCounter counter;
    private final int keepRecentTurns;
    private final Duration timeout;
    private final Scheduler scheduler;

    /** @param keepRecentTurns turns left verbatim at the end; {@code timeout} bounds each summary */
    public SummaryAttempt(Summarizer summarizer, TokenCounter counter, int keepRecentTurns,
                          Duration timeout, Scheduler scheduler) {
        this.summarizer = summarizer;
        this.counter = counter;
        this.keepRecentTurns = keepRecentTurns;
        this.timeout = timeout;
        this.scheduler = scheduler;
    }

    /** This attempt, counting tokens with {@code counter} instead. */
    public SummaryAttempt countingWith(TokenCounter counter) {
        return new SummaryAttempt(summarizer, counter, keepRecentTurns, timeout, scheduler);
    }

    /**
     * The part of {@code conversation} a summary would replace, if there is one worth
     * summarising: at least one message, holding more tokens than an empty summary would.
     */
    public Optional<OlderPart> olderPart(Conversation conversation) {
        List<Integer> older = olderMessages(ConversationLayout.of(conversation));
        List<Message> replaced = new ArrayList<>(older.size());
        int replacedTokens = 0;
        for (int index : older) {
            replaced.add(conversation.get(index));
            replacedTokens += counter.countMessage(conversation.get(index));
        }
        int maxTokens = replacedTokens - counter.countMessage(summaryMessage(""));
        return older.isEmpty() || maxTokens <= 0 ? Optional.empty()
                : Optional.of(new OlderPart(conversation, List.copyOf(older), new Conversation(replaced),
                        replacedTokens, maxTokens));
    }

    /** Asks for a summary of {@code older} and puts it in place; see the class description. */
    public CompletionStage<Summarized> run(OlderPart older) {
        return withTimeout(ask(older.messages(), older.maxTokens())).thenApply(summary -> replace(older, summary));
    }

    private List<Integer> olderMessages(ConversationLayout layout) {
        int recentStart = layout.recentStart(keepRecentTurns);
        List<Integer> older = new ArrayList<>();
        for (int index = 0; index < recentStart; index++) {
            int group = layout.groupOf(index);
            if (!layout.isAnchored(group) && layout.lastMember(group) < recentStart) {
                older.add(index);
            }
        }
        return older;
    }

    // A summariser that throws instead of failing its stage is treated the same way.
    private CompletionStage<String> ask(Conversation older, int maxTokens) {
        try {
            CompletionStage<String> stage = summarizer.summarize(older, maxTokens);
            return stage != null ? stage
                    : CompletableFuture.failedFuture(new InvalidSummaryException("the summariser returned no stage"));
        } catch (RuntimeException error) {
            return CompletableFuture.failedFuture(error);
        }
    }

    private CompletionStage<String> withTimeout(CompletionStage<String> summary) {
        CompletableFuture<String> bounded = new CompletableFuture<>();
        Scheduler.Cancellable timer = scheduler.schedule(
                () -> bounded.completeExceptionally(new CallTimeoutException(timeout)), timeout.toNanos());
        summary.whenComplete((text, error) -> {
            timer.cancel();
            if (error != null) {
                bounded.completeExceptionally(unwrap(error));
            } else {
                bounded.complete(text);
            }
        });
        return bounded;
    }

    private Summarized replace(OlderPart older, String summary) {
        if (summary == null || summary.isBlank()) {
            throw new InvalidSummaryException("the summary is blank");
        }
        Message summaryMessage = summaryMessage(summary.strip());
        int summaryTokens = counter.countMessage(summaryMessage);
        if (summaryTokens >= older.replacedTokens()) {
            throw new InvalidSummaryException("the summary has " + summaryTokens + " tokens, not fewer than the "
                    + older.replacedTokens() + " tokens of the " + older.indices().size()
                    + " messages it would replace");
        }
        Conversation conversation = older.conversation();
        List<Message> messages = new ArrayList<>(conversation.size() - older.indices().size() + 1);
        int next = 0;
        for (int index = 0; index < conversation.size(); index++) {
            if (next < older.indices().size() && older.indices().get(next) == index) {
                if (next == 0) {
                    messages.add(summaryMessage);
                }
                next++;
            } else {
                messages.add(conversation.get(index));
            }
        }
        return new Summarized(new Conversation(messages), older.indices().size());
    }

    private static Message summaryMessage(String summary) {
        return Message.user(SUMMARY_PREFIX + summary);
    }

    /** The cause inside the wrappers that {@link CompletableFuture} adds. */
    public static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * The part of a conversation that a summary would replace.
     *
     * @param conversation   the whole conversation
     * @param indices        the positions of the messages to replace, ascending
     * @param messages       those messages
     * @param replacedTokens their tokens
     * @param maxTokens      the most tokens a summary may have and still be smaller
     */
    public record OlderPart(Conversation conversation, List<Integer> indices, Conversation messages,
                            int replacedTokens, int maxTokens) {
    }

    /**
     * A conversation whose older part a summary replaced.
     *
     * @param conversation     the new conversation
     * @param messagesReplaced how many messages the summary stands for
     */
    public record Summarized(Conversation conversation, int messagesReplaced) {
    }
}
