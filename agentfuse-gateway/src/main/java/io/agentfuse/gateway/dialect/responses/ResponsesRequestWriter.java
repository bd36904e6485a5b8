package io.agentfuse.gateway.dialect.responses;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.vertx.core.json.JsonObject;

/**
 * The upstream bodies for a request parsed by {@link ResponsesRequestParser}: the caller's own
 * body for a provider that speaks the Responses API, or a translation for one that does not.
 *
 * <p>Forwarding changes only the model name: every field, known to the gateway or not, reaches
 * the provider as sent — {@code previous_response_id} and {@code store} included, since that
 * provider holds the state they refer to. A Responses stream always reports usage in its final
 * event, so nothing needs adding for token accounting. Translating fails with every reason
 * collected at parse time, so a fallback step of another dialect is skipped with them.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * ChatRequest request = ResponsesRequestParser.parse(body);
 * JsonObject toOpenAi = ResponsesRequestWriter.forward(request, "gpt-4.1-mini");
 * JsonObject toAnthropic = ResponsesRequestWriter.translate(request, Dialects.ANTHROPIC, "claude-haiku-4-5");
 * }</pre>
 */
public final class ResponsesRequestWriter {

    private ResponsesRequestWriter() {
    }

    /** The caller's Responses body, for a Responses provider's {@code upstreamModel}. */
    public static JsonObject forward(ChatRequest request, String upstreamModel) {
        return request.original().put("model", upstreamModel);
    }

    /**
     * The request written in {@code target} (Anthropic Messages, or Chat Completions for an
     * OpenAI-compatible provider without the Responses API) for its model {@code upstreamModel}.
     *
     * @throws UntranslatableException naming every field that cannot be carried over
     */
    public static JsonObject translate(ChatRequest request, Dialect target, String upstreamModel) {
        if (!request.untranslatable().isEmpty()) {
            throw new UntranslatableException(request.untranslatable());
        }
        return target.writeRequest(request, upstreamModel);
    }
}
