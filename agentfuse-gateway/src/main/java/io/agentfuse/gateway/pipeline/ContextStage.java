package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.Future;

/**
 * The pipeline's context-budget step, between parsing and routing: it may pass a request on
 * unchanged, compact or snip its conversation ({@link ModelRequest#withChat}), set the level
 * reported in {@code x-agentfuse-context} ({@link ModelRequest#withContextLevel}), or refuse it by
 * failing with a {@link io.agentfuse.gateway.http.GatewayException} of
 * {@link io.agentfuse.gateway.http.GatewayError#CONTEXT_WINDOW_FULL}.
 *
 * <p>The gateway installs {@link #NONE} unless given a {@link Factory} (see
 * {@code GatewayOptions.Builder#contextStage}). Implementations must be thread-safe: one
 * instance serves every request, on any event loop; they must not block.
 *
 * <pre>{@code
 * ContextStage.Factory factory = (runtime, models) -> request -> {
 *     ContextLevel level = runtime.contextBudget(request.model().name()).levelOf(countTokens(request.chat()));
 *     return Future.succeededFuture(request.withContextLevel(level.name()));
 * };
 * }</pre>
 */
@FunctionalInterface
public interface ContextStage {

    /** Passes every request on unchanged, without a context level. */
    ContextStage NONE = Future::succeededFuture;

    /** The request to route, or a failed future that ends the request with that error. */
    Future<ModelRequest> apply(ModelRequest request);

    /**
     * {@code chat}, fitted for fallback step {@code step} of a request for {@code requested}: a
     * model with a smaller window gets the ladder applied again for its own window. Must not
     * block: it runs while the chain is planned. The default passes {@code chat} on unchanged.
     *
     * @throws io.agentfuse.gateway.http.GatewayException of
     *         {@link io.agentfuse.gateway.http.GatewayError#CONTEXT_WINDOW_FULL} when it cannot fit;
     *         the step is then skipped with that reason
     */
    default ChatRequest fitForFallback(ChatRequest chat, ModelConfig requested, ModelConfig step) {
        return chat;
    }

    /**
     * The input tokens of {@code chat} (system prompt and conversation) for {@code model}, counted
     * no lower than a counter would: what a budget reserves for the request's input before it is
     * sent. Must not block, and should cost little on an event loop. The default takes a token per
     * character and a few per message, above the count of ordinary text.
     */
    default long inputTokens(ChatRequest chat, ModelConfig model) {
        long tokens = chat.system() == null ? 0 : chat.system().length();
        for (ChatMessage message : chat.messages()) {
            tokens += 4;
            for (ContentPart part : message.content()) {
                tokens += part instanceof ContentPart.Text text ? text.text().length() : 16;
            }
        }
        return tokens;
    }

    /**
     * Where the input tokens a provider reports for {@code request}, as this stage passed it on, go
     * once it is answered (a complete answer, or a stream that ended whole and was not continued):
     * the context ladder counts a later request that begins with it by them. Called on the event
     * loop before the request's conversation is let go; must not block. The default keeps nothing.
     */
    default ReportedUsage reportedUsage(ModelRequest request) {
        return ReportedUsage.IGNORED;
    }

    /** What a provider reported of a request's input, told once the request is answered. */
    @FunctionalInterface
    interface ReportedUsage {

        /** Keeps nothing. */
        ReportedUsage IGNORED = (answeredBy, usage) -> { };

        /** The request was answered by step {@code answeredBy}, whose provider reported {@code usage}. */
        void answered(ModelConfig answeredBy, Usage usage);
    }

    /** Builds the stage once the gateway's runtime and model client exist. */
    @FunctionalInterface
    interface Factory {

        /**
         * @param runtime the gateway's guards, breakers and context budgets
         * @param models  complete (non-streamed) calls through the gateway's own guarded chains,
         *                e.g. for a summary by {@code context.compactModel}
         */
        ContextStage create(AgentfuseRuntime runtime, ModelClient models);
    }
}
