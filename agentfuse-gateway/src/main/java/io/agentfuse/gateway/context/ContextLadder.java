package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionConfig;
import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.tokens.ImageAccounting;
import io.agentfuse.agent.tokens.EstimatingTokenCounter;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Scheduler;
import io.agentfuse.gateway.context.ReportedPrompts.Calibration;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.provider.MediaTokens;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

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
 * <p>Measuring costs as little as the level allows, and the level is always the one counting
 * would give: a bound of four tokens per char settles small requests on the calling thread, and
 * so does the counter's bound when every text's is {@linkplain TokenCounter#knownUpperBoundText
 * known at once} (a resent conversation); otherwise the target's counter's proven bound
 * ({@link TokenCounter#upperBoundText}) settles NORMAL for most others without building the
 * conversation; only the rest is counted, per message, by the shared counter of
 * {@link TokenCounter#forModel}, which remembers the counts of messages it has seen (an agent
 * resends its conversation every turn).
 *
 * <p><b>Calibrated by reported usage.</b> That counter estimates Claude and Gemini (there is no
 * local tokenizer for them), 10 to 50 % off either way: alone it compacts a conversation that fits,
 * or lets through one the provider refuses. So a request that begins with a prompt whose input tokens
 * a provider reported ({@link ReportedPrompts}: the caller's own prompt, sent unchanged to the same
 * upstream model; same system prompt, tools and messages by content) counts as those tokens plus the
 * estimate of the messages after them, as Claude Code counts its own context; anything else is
 * estimated as before. The report may be below the estimate or above it, so the counter's bounds say
 * nothing of such a request: it is settled on the calling thread only by the bound of chars (above any
 * provider's count, and checked first, before any report is looked for) or by its report plus that bound
 * of the messages after it ({@link #reportedUpperBound}), else counted; the level is always
 * the calibrated count's where there is one, and compaction counts the same way ({@link CalibratedCounter}).
 *
 * <p>Thread-safe. The request body is never copied; a compacted request gets a shallow copy with
 * its new messages. Bounding beyond the first, counting and compaction run on the executor given
 * at construction.
 *
 * <pre>{@code
 * ContextLadder guard = new ContextLadder(ContextConfig.defaults(), summarizer, CompactionConfig.defaults(), clock, scheduler);
 * guard.prepare(request, new ContextTarget("claude-haiku-4", "claude-haiku-4-5", 200_000))
 *      .thenAccept(prepared -> send(prepared.request(), prepared.contextReport()));
 * }</pre>
 */
public final class ContextLadder {

    /**
     * The most tokens any counter of {@link TokenCounter#forModel} makes of one char: three UTF-8 bytes,
     * a token each, times the largest margin of an estimate (the newer Claude tokenizer's).
     */
    static final int TOKENS_PER_CHAR = (int) Math.ceil(3 * EstimatingTokenCounter.STANDARD_MARGIN
            * EstimatingTokenCounter.NEWER_CLAUDE_FACTOR);

    private final ContextConfig config;
    private final Summarizer summarizer;
    private final CompactionConfig compaction;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Executor executor;
    private final ConcurrentHashMap<ContextTarget, Ladder> ladders = new ConcurrentHashMap<>();
    private final ReportedPrompts reports;

    /**
     * A guard that counts and compacts on the calling thread.
     *
     * @param config     the ladder's thresholds and the turns to keep
     * @param summarizer writes summaries at AUTO_COMPACT; {@code null} to always snip
     * @param compaction summary timeout, failure cooldown
     * @param clock      measures the cooldown
     * @param scheduler  fires the summary timeout
     */
    public ContextLadder(ContextConfig config, Summarizer summarizer, CompactionConfig compaction, Clock clock,
                        Scheduler scheduler) {
        this(config, summarizer, compaction, clock, scheduler, Runnable::run);
    }

    /**
     * A guard whose work proportional to the conversation (mapping, counting, snipping, writing the
     * compacted body) runs on {@code executor} — a bounded worker pool in the gateway, so that a
     * large request never blocks an event loop.
     */
    public ContextLadder(ContextConfig config, Summarizer summarizer, CompactionConfig compaction, Clock clock,
                        Scheduler scheduler, Executor executor) {
        this(config, summarizer, compaction, clock, scheduler, executor, new ReportedPrompts(ReportedPrompts.DEFAULT_CAPACITY));
    }

    /** A guard that counts by the input tokens {@code reports} holds where they cover a request. */
    ContextLadder(ContextConfig config, Summarizer summarizer, CompactionConfig compaction, Clock clock,
                  Scheduler scheduler, Executor executor, ReportedPrompts reports) {
        this.reports = Objects.requireNonNull(reports, "reports");
        this.config = Objects.requireNonNull(config, "config");
        this.summarizer = summarizer;
        this.compaction = Objects.requireNonNull(compaction, "compaction");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** Drops what is kept for {@code model}, no longer served (its compaction cooldown, its counter). */
    public void forget(String model) {
        ladders.keySet().removeIf(target -> target.model().equals(model));
    }

    /**
     * Measures {@code request} against {@code target}'s window and compacts it if it must. Only a
     * bound that costs one step per message is computed on the calling thread; anything
     * proportional to the conversation runs on the executor.
     */
    public CompletionStage<PreparedRequest> prepare(ChatRequest request, ContextTarget target) {
        Ladder ladder = ladders.computeIfAbsent(target, this::ladderFor);
        ContextBudget budget = ladder.compactor.budget();
        if (budget.levelOf(tokenUpperBound(request, ladder.counter.imageAccounting())) == ContextLevel.NORMAL) {
            // Small requests: settled without leaving the event loop. The bound is above any provider's count,
            // reported or not (a token is at least a byte), so no report is looked for.
            return CompletableFuture.completedFuture(new PreparedRequest(request, ContextLevel.NORMAL, null));
        }
        Calibration reported = reports.find(target.upstreamModel(), PromptKeys.of(request));
        if (reported != null) {
            if (budget.levelOf(reportedUpperBound(request, reported, ladder.counter.imageAccounting()))
                    == ContextLevel.NORMAL) {
                // Its earlier part as reported, the rest by four tokens a char: settled on the event loop.
                return CompletableFuture.completedFuture(new PreparedRequest(request, ContextLevel.NORMAL, null));
            }
        } else {
            long known = ConversationMapper.knownUpperBound(request, ladder.counter);
            if (known >= 0 && budget.levelOf(known) == ContextLevel.NORMAL) {
                // A resent conversation whose every text was bounded before: the same bound, one step a text.
                return CompletableFuture.completedFuture(new PreparedRequest(request, ContextLevel.NORMAL, null));
            }
        }
        return CompletableFuture.supplyAsync(() -> measure(request, ladder, reported), executor)
                .thenCompose(measured -> fit(request, target, measured));
    }

    /**
     * The level by the cheapest measure that settles it. With no report covering the request: the
     * counter's bound over the request as parsed (NORMAL below WARNING, and then no conversation is
     * built), else the conversation counted, message by message and with the counts of messages seen
     * before. With one: the reported tokens plus the count of the messages after what they cover,
     * and, when that calls for compaction, a compactor that counts the same way ({@link CalibratedCounter}).
     */
    private static Measured measure(ChatRequest request, Ladder ladder, Calibration reported) {
        if (reported == null) {
            if (ladder.compactor.budget().levelOf(ConversationMapper.upperBound(request, ladder.counter))
                    == ContextLevel.NORMAL) {
                return Measured.NORMAL;
            }
            Conversation conversation = ConversationMapper.toConversation(request);
            return new Measured(conversation, ladder.compactor.levelOf(conversation), ladder.compactor);
        }
        Conversation conversation = ConversationMapper.toConversation(request);
        int part = conversation.size() - request.messages().size() + reported.messages();
        ContextLevel level = ladder.compactor.budget().levelOf(
                CalibratedCounter.count(ladder.counter, conversation, part, reported.inputTokens()));
        return new Measured(conversation, level, !level.isAtLeast(ContextLevel.AUTO_COMPACT) ? ladder.compactor
                : ladder.compactor.measuringWith(new CalibratedCounter(ladder.counter, conversation, part,
                        reported.inputTokens())));
    }

    /** The request fitted to {@code target}, written for its window when compaction changed it. */
    private CompletionStage<PreparedRequest> fit(ChatRequest request, ContextTarget target, Measured measured) {
        if (!measured.level().isAtLeast(ContextLevel.AUTO_COMPACT)) {
            return CompletableFuture.completedFuture(new PreparedRequest(request, measured.level(), null));
        }
        return measured.compactor().compact(measured.conversation()).thenApplyAsync(result -> new PreparedRequest(
                result.conversation() == measured.conversation() ? request
                        : ConversationMapper.withConversation(request, measured.conversation(), result.conversation(),
                                target.contextWindow()),
                measured.level(), result.report()), executor);
    }

    /**
     * A request's conversation, its level as counted, and the compactor that counts it so; no
     * conversation when a bound settled NORMAL.
     */
    private record Measured(Conversation conversation, ContextLevel level, Compactor compactor) {
        static final Measured NORMAL = new Measured(null, ContextLevel.NORMAL, null);
    }

    /** The compactor of one target and the counter it measures with. */
    private record Ladder(Compactor compactor, TokenCounter counter) {
    }

    /** The ladder level of {@code request} for {@code target}, without compacting anything. */
    public ContextLevel levelOf(ChatRequest request, ContextTarget target) {
        return measure(request, ladders.computeIfAbsent(target, this::ladderFor),
                reports.find(target.upstreamModel(), PromptKeys.of(request))).level();
    }

    /**
     * More tokens than the count of {@code request} whose start {@code reported} covers: the reported
     * tokens, and {@link #tokenUpperBound}'s bound of the messages after them.
     */
    static long reportedUpperBound(ChatRequest request, Calibration reported, ImageAccounting images) {
        List<ChatMessage> messages = request.messages();
        long chars = 0;
        for (int i = reported.messages(); i < messages.size(); i++) {
            for (ContentPart part : messages.get(i).content()) {
                chars += charsOf(part, images);
            }
        }
        return reported.inputTokens() + TOKENS_PER_CHAR * chars + 8L * (messages.size() - reported.messages());
    }

    /**
     * More tokens than any of our counters whose images count by {@code images} can give
     * {@code request}, in one step per message (the lengths of its texts): a token covers at least
     * one UTF-8 byte, a char is at most three bytes, the estimate for non-OpenAI models adds 15 %
     * and that of the Claude models with the newer tokenizer 35 % more, and every message costs a few
     * tokens of framing. {@value #TOKENS_PER_CHAR} per char and eight per message bound that. Loose
     * (over 70 % of a 200 000-token window from about 28 000 chars on); what it does not settle, the
     * counter's own bound does.
     */
    static long tokenUpperBound(ChatRequest request, ImageAccounting images) {
        long chars = (request.system() == null ? 0 : request.system().length()) + ToolsMessage.chars(request);
        for (ChatMessage message : request.messages()) {
            for (ContentPart part : message.content()) {
                chars += charsOf(part, images);
            }
        }
        return TOKENS_PER_CHAR * chars + 8L * (request.messages().size() + 2);
    }

    private static long charsOf(ContentPart part, ImageAccounting images) {
        if (part instanceof ContentPart.Text text) {
            return text.text().length();
        }
        if (part instanceof ContentPart.ToolCall call) {
            return call.id().length() + call.name().length() + call.arguments().length();
        }
        if (part instanceof ContentPart.ToolResult result) {
            long chars = result.toolCallId().length() + result.content().length();
            for (ContentPart attachment : result.attachments()) {
                chars += charsOf(attachment, images);
            }
            return chars;
        }
        if (part instanceof ContentPart.Opaque opaque) {
            return opaque.json().length();
        }
        // Media counts by its pixels, pages or seconds, whatever its bytes: its tokens as chars of the bound.
        return MediaTokens.of(part, images) / TOKENS_PER_CHAR + 1;
    }

    private Ladder ladderFor(ContextTarget target) {
        TokenCounter counter = TokenCounter.forModel(target.upstreamModel());
        Compactor.Builder builder = Compactor.builder(ContextBudget.of(config, target.contextWindow()), counter)
                .config(compaction)
                .clock(clock)
                .scheduler(scheduler);
        if (summarizer != null) {
            builder.summarizer(summarizer);
        }
        return new Ladder(builder.build(), counter);
    }
}
