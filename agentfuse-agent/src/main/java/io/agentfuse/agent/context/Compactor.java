package io.agentfuse.agent.context;

import io.agentfuse.agent.context.internal.SummaryAttempt;
import io.agentfuse.agent.context.internal.SummaryAttempt.OlderPart;
import io.agentfuse.agent.context.internal.SummaryAttempt.Summarized;
import io.agentfuse.agent.context.internal.SummaryFailureTracker;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Scheduler;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Walks a conversation down the context ladder, never leaving it worse when a step fails.
 *
 * <p>By the level of the conversation given ({@link ContextBudget}):
 * <ul>
 *   <li>NORMAL, WARNING: returned as the same instance ({@link CompactionStrategy#NONE}).</li>
 *   <li>AUTO_COMPACT: the {@link Summarizer} replaces everything but the system prompt, pinned
 *       messages and the last {@code keepRecentTurns} turns with one summary message. If it fails,
 *       times out ({@code summaryTimeout}, on the injected scheduler), answers blank, or answers
 *       with no fewer tokens than it replaces, the summary is discarded, the original is kept,
 *       and the run degrades to snipping it. After {@code maxSummaryFailures} failures in a row
 *       the summariser is not asked for {@code failureCooldown}; snipping runs at once. When
 *       nothing is old enough to summarise, snipping runs at once too, and no failure counts.</li>
 *   <li>SNIP_COMPACT, REJECT: the {@link Snipper} drops the oldest turns until the conversation
 *       is below {@code snipBelow}.</li>
 * </ul>
 * If the result is still at REJECT, the stage fails with a {@link ContextWindowFullException}
 * (the exception itself, not wrapped) that carries the report. Every other run completes with a
 * {@link CompactionResult} whose {@link CompactionReport} says what was done and why.
 *
 * <p>Never blocks: the summary is awaited asynchronously and the work after it runs on the
 * {@code executor} (by default, on the thread that completed the summary, or the scheduler's
 * thread after a timeout). Thread-safe: one instance may serve many sessions of one model; the
 * failure count that drives the cooldown is shared between them, since it describes the
 * summariser.
 *
 * <pre>{@code
 * Compactor compactor = Compactor.builder(ContextBudget.of(ContextConfig.defaults(), 200_000), counter)
 *         .summarizer(summarizer)
 *         .build();
 * compactor.compact(conversation).thenAccept(result -> send(result.conversation()));
 * }</pre>
 */
public final class Compactor {

    private final ContextBudget budget;
    private final TokenCounter counter;
    private final CompactionConfig config;
    private final Executor executor;
    private final Snipper snipper;
    private final SummaryAttempt summaryAttempt;
    private final SummaryFailureTracker failures;

    private Compactor(Builder builder) {
        this.budget = builder.budget;
        this.counter = builder.counter;
        this.config = builder.config;
        this.executor = builder.executor;
        this.snipper = new Snipper(counter);
        this.summaryAttempt = builder.summarizer == null ? null
                : new SummaryAttempt(builder.summarizer, counter, budget.config().keepRecentTurns(),
                        config.summaryTimeout(), builder.scheduler);
        this.failures = new SummaryFailureTracker(config.maxSummaryFailures(), config.failureCooldown(), builder.clock);
    }

    // The compactor `measured` is, counting with `counter`: its failures stay shared, so one cooldown holds.
    private Compactor(Compactor measured, TokenCounter counter) {
        this.budget = measured.budget;
        this.counter = counter;
        this.config = measured.config;
        this.executor = measured.executor;
        this.snipper = new Snipper(counter);
        this.summaryAttempt = measured.summaryAttempt == null ? null : measured.summaryAttempt.countingWith(counter);
        this.failures = measured.failures;
    }

    /**
     * This compactor (its ladder, settings, summariser and summary failure count, so one cooldown still
     * holds for all) measuring with {@code counter} instead: for one conversation that {@code counter}
     * counts better than this compactor's own, such as one whose earlier part a provider reported the
     * usage of ({@link io.agentfuse.agent.tokens.UsageAwareTokenCounter}). Cheap: made per compaction.
     */
    public Compactor measuringWith(TokenCounter counter) {
        return new Compactor(this, Objects.requireNonNull(counter, "counter"));
    }

    /** A builder for a compactor over {@code budget}, measuring with {@code counter}. */
    public static Builder builder(ContextBudget budget, TokenCounter counter) {
        return new Builder(budget, counter);
    }

    /**
     * The ladder level of {@code conversation}. A conversation whose token bound is already below
     * WARNING is NORMAL without being counted; the bound is never below the count, so the level is
     * the one counting would give.
     */
    public ContextLevel levelOf(Conversation conversation) {
        if (budget.levelOf(counter.upperBoundConversation(conversation)) == ContextLevel.NORMAL) {
            return ContextLevel.NORMAL;
        }
        return budget.levelOf(counter.countConversation(conversation));
    }

    /** Compacts {@code conversation} as far as its level calls for; see the class description. */
    public CompletionStage<CompactionResult> compact(Conversation conversation) {
        Objects.requireNonNull(conversation, "conversation");
        long tokens = counter.countConversation(conversation);
        Start start = new Start(conversation, tokens, budget.levelOf(tokens));
        if (!start.level.isAtLeast(ContextLevel.AUTO_COMPACT)) {
            return settle(() -> finish(start, conversation, tokens, CompactionStrategy.NONE,
                    SummaryOutcome.NOT_ATTEMPTED, null, 0, 0));
        }
        if (start.level != ContextLevel.AUTO_COMPACT || summaryAttempt == null) {
            return settle(() -> snip(start, SummaryOutcome.NOT_ATTEMPTED, null));
        }
        if (failures.inCooldown()) {
            return settle(() -> snip(start, SummaryOutcome.SKIPPED_IN_COOLDOWN, null));
        }
        Optional<OlderPart> older = summaryAttempt.olderPart(conversation);
        if (older.isEmpty()) {
            return settle(() -> snip(start, SummaryOutcome.NOT_ATTEMPTED, null));
        }
        CompletableFuture<CompactionResult> result = new CompletableFuture<>();
        summaryAttempt.run(older.get()).whenCompleteAsync((summarized, error) -> {
            try {
                result.complete(error == null ? afterSummary(start, summarized) : afterFailedSummary(start, error));
            } catch (RuntimeException failure) {
                result.completeExceptionally(failure);
            }
        }, executor);
        return result;
    }

    /**
     * {@link #compact(Conversation)}, waiting for the result on the calling thread. Never call it
     * on an event loop, nor with a {@link io.agentfuse.core.ManualClock} that only this thread
     * advances.
     *
     * @throws ContextWindowFullException if the conversation is still at REJECT
     */
    public CompactionResult compactAndWait(Conversation conversation) {
        try {
            return compact(conversation).toCompletableFuture().join();
        } catch (CompletionException wrapped) {
            if (SummaryAttempt.unwrap(wrapped) instanceof RuntimeException cause) {
                throw cause;
            }
            throw wrapped;
        }
    }

    /** The ladder this compactor works to. */
    public ContextBudget budget() {
        return budget;
    }

    // A valid summary only shrinks a conversation that was below SNIP_COMPACT, so it never needs
    // snipping after it; if it is still at AUTO_COMPACT, the next run summarises again.
    private CompactionResult afterSummary(Start start, Summarized summarized) {
        failures.recordSuccess();
        Conversation compacted = summarized.conversation();
        return finish(start, compacted, counter.countConversation(compacted), CompactionStrategy.SUMMARY,
                SummaryOutcome.SUCCEEDED, null, summarized.messagesReplaced(), 0);
    }

    // Rollback: the summary attempt never touched start.conversation, so snipping starts from it.
    private CompactionResult afterFailedSummary(Start start, Throwable error) {
        failures.recordFailure();
        return snip(start, SummaryOutcome.FAILED, SummaryAttempt.unwrap(error));
    }

    private CompactionResult snip(Start start, SummaryOutcome summary, Throwable failure) {
        Snipper.Result snipped = snipper.snip(start.conversation, budget.startOf(config.snipBelow()));
        if (snipped.messagesDropped() == 0) {
            return finish(start, start.conversation, start.tokens, CompactionStrategy.NONE, summary, failure, 0, 0);
        }
        return finish(start, snipped.conversation(), counter.countConversation(snipped.conversation()),
                CompactionStrategy.SNIP, summary, failure, 0, snipped.messagesDropped());
    }

    private CompactionResult finish(Start start, Conversation result, long tokens, CompactionStrategy strategy,
                                    SummaryOutcome summary, Throwable failure, int summarized, int dropped) {
        ContextLevel level = budget.levelOf(tokens);
        CompactionReport report = new CompactionReport(start.level, level, start.tokens, tokens,
                strategy, summary, failure, summarized, dropped);
        if (level == ContextLevel.REJECT) {
            throw new ContextWindowFullException(tokens + budget.config().reserveOutputTokens(),
                    budget.windowTokens(), report);
        }
        return new CompactionResult(result, report);
    }

    private static CompletionStage<CompactionResult> settle(Supplier<CompactionResult> run) {
        try {
            return CompletableFuture.completedFuture(run.get());
        } catch (RuntimeException failure) {
            return CompletableFuture.failedFuture(failure);
        }
    }

    private record Start(Conversation conversation, long tokens, ContextLevel level) {
    }

    /** Builds a {@link Compactor}. Not thread-safe. */
    public static final class Builder {
        private final ContextBudget budget;
        private final TokenCounter counter;
        private Summarizer summarizer;
        private CompactionConfig config = CompactionConfig.defaults();
        private Clock clock = Clock.system();
        private Scheduler scheduler = Scheduler.shared();
        private Executor executor = Runnable::run;

        private Builder(ContextBudget budget, TokenCounter counter) {
            this.budget = Objects.requireNonNull(budget, "budget");
            this.counter = Objects.requireNonNull(counter, "counter");
        }

        /** Writes summaries at AUTO_COMPACT; without one, every compaction snips. */
        public Builder summarizer(Summarizer summarizer) {
            this.summarizer = Objects.requireNonNull(summarizer, "summarizer");
            return this;
        }

        /** Timeouts, cooldown and snip target; default {@link CompactionConfig#defaults()}. */
        public Builder config(CompactionConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Measures the failure cooldown; default {@link Clock#system()}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Fires summary timeouts; default {@link Scheduler#shared()}. */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** Runs the work that follows a summary; default: the thread that completed it. */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** The compactor. */
        public Compactor build() {
            return new Compactor(this);
        }
    }
}
