package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.Dialect;

import java.util.Objects;

/**
 * One model request on its way through the gateway's pipeline: the parsed chat request, the
 * configured model it asked for, whether a subagent sent it, and — once the context stage has
 * looked at it — the context-budget level to report.
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
 * @param contextLevel the context-budget level for the {@code x-agentfuse-context} header, or {@code null}
 */
public record ModelRequest(ChatRequest chat, ModelConfig model, String subagent, String contextLevel) {

    public ModelRequest {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(model, "model");
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
        return new ModelRequest(chat, model, subagent, contextLevel);
    }

    /** This request reporting {@code contextLevel} in {@code x-agentfuse-context}. */
    public ModelRequest withContextLevel(String contextLevel) {
        return new ModelRequest(chat, model, subagent, contextLevel);
    }
}
