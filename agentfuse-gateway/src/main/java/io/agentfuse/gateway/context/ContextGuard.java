package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionConfig;
import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Scheduler;
import io.agentfuse.gateway.dialect.ChatRequest;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The context ladder of the gateway: before a request goes to a model, it is measured against
 * that model's window and, when it has to be, compacted.
 *
 * <ul>
 *   <li>NORMAL, WARNING: sent as it is (the level goes into {@code x-agentfuse-context});</li>
 *   <li>AUTO_COMPACT: the older turns are summarised by the compact model; if that fails, the
 *       request is rolled back untouched and snipped instead;</li>
 *   <li>SNIP_COMPACT: the oldest turns are snipped;</li>
 *   <li>still at REJECT after that: the stage fails with
 *       {@link io.agentfuse.agent.context.ContextWindowFullException} (HTTP 413
 *       {@code context_window_full}).</li>
 * </ul>
 *
 * One {@link Compactor} per target model keeps its failure count, so that after three failed
 * summaries in a row that model's requests go straight to snipping for a cooldown. Because the
 * ladder is applied per target, a fallback model with a smaller window gets the request measured
 * (and compacted) again for its own window.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * ContextGuard guard = new ContextGuard(ContextConfig.defaults(), summarizer, CompactionConfig.defaults(), clock, scheduler);
 * guard.prepare(request, new ContextTarget("claude-haiku-4", "claude-haiku-4-5", 200_000))
 *      .thenAccept(prepared -> send(prepared.request(), prepared.header()));
 * }</pre>
 */
public final class ContextGuard {

    private final ContextConfig config;
    private final Summarizer summarizer;
    private final CompactionConfig compaction;
    private final Clock clock;
    private final Scheduler scheduler;
    private final ConcurrentHashMap<ContextTarget, Compactor> compactors = new ConcurrentHashMap<>();

    /**
     * @param config     the ladder's thresholds and the turns to keep
     * @param summarizer writes summaries at AUTO_COMPACT; {@code null} to always snip
     * @param compaction summary timeout, failure cooldown
     * @param clock      measures the cooldown
     * @param scheduler  fires the summary timeout
     */
    public ContextGuard(ContextConfig config, Summarizer summarizer, CompactionConfig compaction, Clock clock,
                        Scheduler scheduler) {
        this.config = Objects.requireNonNull(config, "config");
        this.summarizer = summarizer;
        this.compaction = Objects.requireNonNull(compaction, "compaction");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /** Measures {@code request} against {@code target}'s window and compacts it if it must. */
    public CompletionStage<PreparedRequest> prepare(ChatRequest request, ContextTarget target) {
        Compactor compactor = compactors.computeIfAbsent(target, this::compactorFor);
        Conversation conversation = ConversationMapper.toConversation(request);
        ContextLevel level;
        try {
            level = compactor.levelOf(conversation);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (!level.isAtLeast(ContextLevel.AUTO_COMPACT)) {
            return CompletableFuture.completedFuture(new PreparedRequest(request, level, null));
        }
        return compactor.compact(conversation).thenApply(result -> new PreparedRequest(
                result.conversation() == conversation ? request : ConversationMapper.withConversation(request, result.conversation()),
                level, result.report()));
    }

    /** The ladder level of {@code request} for {@code target}, without compacting anything. */
    public ContextLevel levelOf(ChatRequest request, ContextTarget target) {
        return compactors.computeIfAbsent(target, this::compactorFor).levelOf(ConversationMapper.toConversation(request));
    }

    private Compactor compactorFor(ContextTarget target) {
        Compactor.Builder builder = Compactor.builder(ContextBudget.of(config, target.contextWindow()),
                        TokenCounter.forModel(target.upstreamModel()))
                .config(compaction)
                .clock(clock)
                .scheduler(scheduler);
        if (summarizer != null) {
            builder.summarizer(summarizer);
        }
        return builder.build();
    }
}
