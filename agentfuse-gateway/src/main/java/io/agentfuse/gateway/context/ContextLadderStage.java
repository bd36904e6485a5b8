package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionConfig;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.CompactionStrategy;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.ContextWindowFullException;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.Scheduler;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.pipeline.ContextStage;
import io.agentfuse.gateway.pipeline.ModelClient;
import io.agentfuse.gateway.pipeline.ModelRequest;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.responses.ResponsesStoredState;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;

/**
 * The gateway's context-budget step: applies the {@code context:} ladder of the configuration to
 * every request, against the window of the model it asks for, before it is routed.
 *
 * <p>Summaries at AUTO_COMPACT are written by {@code context.compactModel}, called through the
 * gateway's own guarded route (its breaker, retries and fallbacks), asked for no more tokens than the
 * least output limit of that route ({@link #summaryOutputLimit}); without a compact model the ladder snips. The level goes into {@code x-agentfuse-context}, what was done into {@code x-agentfuse-compaction}; a request that
 * stays at REJECT is refused with 413 {@code context_window_full}.
 *
 * <p>A fallback model with a smaller window gets the request fitted again for its own window by
 * {@link #fitForFallback}: by snipping only, because that step may never run and a summary would
 * cost a model call. A request that cannot fit it makes that step skipped, with the reason.
 *
 * <p>Thread-safe: one instance serves every request; nothing blocks an event loop. The gateway
 * installs it unless {@code GatewayOptions.contextStage} names another stage.
 */
public final class ContextLadderStage implements ContextStage {

    private final ContextLadder ladder;
    private final ContextLadder snipOnly;
    private final GatewayMetrics metrics;
    /** More chars than any token of a text holds, but for runs of one char ({@link #reportedUsage}). */
    private static final int MOST_CHARS_PER_TOKEN = 32;

    /** What providers reported of the prompts sent as they came, which both ladders count by. */
    private final ReportedPrompts reports = new ReportedPrompts(ReportedPrompts.DEFAULT_CAPACITY);

    private ContextLadderStage(ContextConfig config, Summarizer summarizer, Clock clock, Scheduler scheduler,
                              Executor workers, GatewayMetrics metrics) {
        this.metrics = metrics;
        this.ladder = new ContextLadder(config, summarizer, CompactionConfig.defaults(), clock, scheduler, workers, reports);
        // fitForFallback must answer at once while the chain is planned: it snips on the calling thread.
        this.snipOnly = new ContextLadder(config, null, CompactionConfig.defaults(), clock, scheduler, Runnable::run,
                reports);
    }

    /**
     * The factory the gateway installs: the ladder of {@code runtime}'s configuration, whose
     * counting and compaction run on {@code workers} (a bounded pool, never an event loop), each
     * request's level and each compaction counted in {@code metrics}.
     */
    public static ContextStage.Factory factory(Clock clock, Scheduler scheduler, Executor workers, GatewayMetrics metrics) {
        return (runtime, models) -> {
            ContextLadderStage stage = new ContextLadderStage(runtime.config().context().toContextConfig(),
                    summarizer(runtime, models), clock, scheduler, workers, metrics);
            runtime.onFamilyModelDropped(model -> {
                stage.ladder.forget(model.name());
                stage.snipOnly.forget(model.name());
            });
            return stage;
        };
    }

    private static Summarizer summarizer(AgentfuseRuntime runtime, ModelClient models) {
        return runtime.config().context().compactModel()
                .map(compactModel -> (Summarizer) new TranscriptSummarizer((system, prompt, maxTokens) ->
                        summarize(models, compactModel, system, prompt, maxTokens),
                        () -> summaryOutputLimit(runtime, compactModel)))
                .orElse(null);
    }

    /**
     * The most tokens a summary is asked for: the least {@link ModelConfig#maxOutputTokens} of the compact
     * model's chain (the model, then its fallbacks, any of which may be the one that writes it), read
     * from the configuration in force, so that no step refuses the request with 400; unbounded for a
     * compact model that is not served (the call then fails as the gateway answers it).
     */
    static int summaryOutputLimit(AgentfuseRuntime runtime, String compactModel) {
        return runtime.model(compactModel)
                .map(model -> runtime.config().chainFor(model, false).stream()
                        .mapToInt(ModelConfig::maxOutputTokens).min().orElse(model.maxOutputTokens()))
                .orElse(Integer.MAX_VALUE);
    }

    private static CompletionStage<String> summarize(ModelClient models, String compactModel, String system,
                                                     String prompt, int maxTokens) {
        ChatRequest request = Dialects.OPENAI.parseRequest(new JsonObject()
                .put("model", compactModel)
                .put("max_tokens", Math.max(1, maxTokens))
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "system").put("content", system))
                        .add(new JsonObject().put("role", "user").put("content", prompt))));
        return models.complete(request).map(ContextLadderStage::text).toCompletionStage();
    }

    private static String text(ChatResponse response) {
        return response.content().stream()
                .filter(ContentPart.Text.class::isInstance)
                .map(part -> ((ContentPart.Text) part).text())
                .collect(Collectors.joining("\n"));
    }

    @Override
    public Future<ModelRequest> apply(ModelRequest request) {
        String model = request.model().name();
        CompletableFuture<PreparedRequest> preparing = ladder.prepare(request.chat(), target(request.model()))
                .toCompletableFuture();
        if (preparing.isDone() && !preparing.isCompletedExceptionally()) {
            // Settled from its bound, or snipped: most requests are prepared before prepare returns.
            return Future.succeededFuture(prepared(request, preparing.join()));
        }
        Promise<ModelRequest> result = Promise.promise();
        preparing.whenComplete((prepared, error) -> {
            if (error == null) {
                result.complete(prepared(request, prepared));
            } else {
                Throwable cause = OutcomeClassifier.unwrap(error);
                if (cause instanceof ContextWindowFullException) {
                    metrics.contextLevel(model, ContextLevel.REJECT);
                }
                result.fail(refusal(cause));
            }
        });
        return result.future();
    }

    /** {@code request} as the ladder prepared it, counted in the metrics. */
    private ModelRequest prepared(ModelRequest request, PreparedRequest prepared) {
        String model = request.model().name();
        metrics.contextLevel(model, prepared.level());
        if (prepared.report() != null && prepared.report().strategy() != CompactionStrategy.NONE) {
            metrics.compaction(model, prepared.report());
        }
        return request.withChat(prepared.request()).withContext(prepared.contextReport());
    }

    @Override
    public ChatRequest fitForFallback(ChatRequest chat, ModelConfig requested, ModelConfig step) {
        if (step.contextWindow() >= requested.contextWindow()) {
            return chat;
        }
        try {
            // Without a summariser the ladder only snips, which completes before prepare returns:
            // join() waits for nothing and never blocks the event loop.
            return snipOnly.prepare(chat, target(step)).toCompletableFuture().join().request();
        } catch (CompletionException e) {
            if (OutcomeClassifier.unwrap(e) instanceof ContextWindowFullException full) {
                throw new GatewayException(GatewayError.CONTEXT_WINDOW_FULL, message(full));
            }
            throw e;
        }
    }

    /**
     * Remembers the input tokens a provider reports for {@code request} when it went upstream as its
     * caller wrote it: not compacted here ({@link #apply}), nor snipped for a fallback's smaller
     * window ({@link #fitForFallback}, which leaves it whole for a window no smaller); and not when
     * part of its prompt is held by the provider, whose report counts that part too. Its key is taken
     * now, while it still has its conversation (a few steps for a resent one: {@link PromptKeys}).
     */
    @Override
    public ReportedUsage reportedUsage(ModelRequest request) {
        if (request.context() != null && request.context().compaction() != null) {
            return ReportedUsage.IGNORED; // sent compacted: no later request of the caller's starts with it
        }
        if (promptHeldByProvider(request.chat().received())) {
            return ReportedUsage.IGNORED;
        }
        PromptKeys.Prompt prompt = PromptKeys.prompt(request.chat());
        long window = request.model().contextWindow();
        // The fewest input tokens a provider can have read of it: its text at MOST_CHARS_PER_TOKEN chars a token
        // (no tokenizer makes longer tokens but of runs of one char), its media not at all. A report below it
        // cannot be of the whole prompt (a server that tells only the tokens it evaluated, without the prefix
        // its own cache held, as local servers may) and, kept, would let the next turns through uncounted.
        long fewest = prompt.textChars() / MOST_CHARS_PER_TOKEN;
        // Nor is one above the answering model's window, which its provider would have refused: an upstream
        // that lies or errs so (a proxy's made-up usage) would have every later turn of the conversation compacted.
        return (answeredBy, usage) -> {
            if (answeredBy.contextWindow() >= window && usage.inputTokens() >= fewest
                    && usage.inputTokens() <= answeredBy.contextWindow()) {
                reports.record(answeredBy.upstreamModel(), prompt.key(), usage.inputTokens());
            }
        };
    }

    /**
     * Whether {@code body} brings in prompt the provider holds, which the request does not show: stored
     * responses or items of the Responses API, its stored {@code prompt}, Gemini's {@code cachedContent}.
     */
    private static boolean promptHeldByProvider(JsonObject body) {
        return ResponsesStoredState.referenceIn(body).isPresent() || body.getValue("prompt") != null
                || body.getValue("cachedContent") != null;
    }

    /** The bound of the model's counter: known at once for a resent conversation, else one pass over its texts. */
    @Override
    public long inputTokens(ChatRequest chat, ModelConfig model) {
        TokenCounter counter = TokenCounter.forModel(model.upstreamModel());
        long known = ConversationMapper.knownUpperBound(chat, counter);
        return known >= 0 ? known : ConversationMapper.upperBound(chat, counter);
    }

    private static ContextTarget target(ModelConfig model) {
        return new ContextTarget(model.name(), model.upstreamModel(), model.contextWindow());
    }

    private static Throwable refusal(Throwable error) {
        return error instanceof ContextWindowFullException full
                ? new GatewayException(GatewayError.CONTEXT_WINDOW_FULL, message(full))
                : error;
    }

    private static String message(ContextWindowFullException full) {
        return "context window full: the request needs " + full.usedTokens() + " tokens of a "
                + full.windowTokens() + "-token window even after compaction and snipping";
    }
}
