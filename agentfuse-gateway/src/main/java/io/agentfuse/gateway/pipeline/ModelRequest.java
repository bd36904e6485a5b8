package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.ForwardedBody;

import java.util.Objects;

/**
 * One model request on its way through the gateway's pipeline: the parsed chat request, the
 * configured model it asked for, whether a subagent sent it, and — once the context stage has
 * looked at it — what that stage reports (level, compaction).
 *
 * <p>Immutable; stages hand on changed copies ({@link #withChat}, {@link #withContextLevel}).
 *
 * <pre>{@code
 * ModelRequest checked = request.withChat(snipped).withContextLevel("SNIP_COMPACT");
 * }</pre>
 *
 * @param chat         the request, parsed from the caller's dialect
 * @param model        the configured model named by {@code chat.model()}
 * @param subagent     the {@code x-agentfuse-subagent} header, or {@code null} for a main-agent request
 * @param context      what the context stage reports, for the response headers, or {@code null} before it
 * @param forwarded    the caller's bytes that {@code chat} was parsed from, so that a same-dialect step
 *                     sends them instead of encoding the body again; {@code null} when unknown or not
 *                     usable, and dropped when {@code chat} is replaced (e.g. compacted)
 * @param budgetFallbackFrom the model the caller asked for when a spent budget's {@code onExhausted:
 *                     {fallback}} serves the request by {@code model} instead; {@code null} otherwise
 */
public record ModelRequest(ChatRequest chat, ModelConfig model, String subagent, ContextReport context,
                           ForwardedBody forwarded, String budgetFallbackFrom) {

    public ModelRequest {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(model, "model");
    }

    /** A request whose body bytes are not known: same-dialect steps encode the parsed body. */
    public ModelRequest(ChatRequest chat, ModelConfig model, String subagent, ContextReport context) {
        this(chat, model, subagent, context, null);
    }

    /** A request for the model the caller asked for. */
    public ModelRequest(ChatRequest chat, ModelConfig model, String subagent, ContextReport context,
                        ForwardedBody forwarded) {
        this(chat, model, subagent, context, forwarded, null);
    }

    /** The caller's dialect, in which the answer and any error go back. */
    public Dialect dialect() {
        return chat.dialect();
    }

    /** Whether a subagent sent the request (the {@code subagents:} limits apply). */
    public boolean fromSubagent() {
        return subagent != null;
    }

    /** This request with {@code chat} instead (e.g. compacted); the model stays the same. */
    public ModelRequest withChat(ChatRequest chat) {
        return new ModelRequest(chat, model, subagent, context, chat == this.chat ? forwarded : null, budgetFallbackFrom);
    }

    /**
     * This request without its conversation ({@link ChatRequest#withoutConversation}) nor the
     * caller's bytes, for the pipeline after planning a complete answer: the steps hold what they
     * send, and answering reads only the dialect, model, subagent and context report.
     */
    public ModelRequest withoutConversation() {
        return new ModelRequest(chat.withoutConversation(), model, subagent, context, null, budgetFallbackFrom);
    }

    /**
     * This request without the caller's bytes, for what writes bodies of its own (a stream's
     * continuation) and must not keep a long conversation's bytes for as long as a stream runs.
     */
    public ModelRequest withoutCallerBytes() {
        return forwarded == null ? this : new ModelRequest(chat, model, subagent, context, null, budgetFallbackFrom);
    }

    /** This request reporting the ladder level {@code level} in {@code x-agentfuse-context}, not compacted. */
    public ModelRequest withContextLevel(String level) {
        return withContext(new ContextReport(level, null));
    }

    /** This request reporting {@code context} in the response headers. */
    public ModelRequest withContext(ContextReport context) {
        return new ModelRequest(chat, model, subagent, context, forwarded, budgetFallbackFrom);
    }

    /**
     * This request served by {@code fallback} because a budget of the model it asked for is spent
     * ({@code onExhausted: {fallback}}): routed along {@code fallback}'s chain, reported as
     * {@code x-agentfuse-fallbacks: <asked>=budget_exceeded}.
     */
    public ModelRequest withBudgetFallback(ModelConfig fallback) {
        return new ModelRequest(chat, fallback, subagent, context, forwarded, model.name());
    }
}
