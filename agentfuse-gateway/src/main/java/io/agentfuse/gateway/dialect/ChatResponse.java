package io.agentfuse.gateway.dialect;

import java.util.List;
import java.util.Objects;

/**
 * A complete (non-streamed) answer in the neutral model.
 *
 * <p>Immutable.
 *
 * <pre>{@code
 * ChatResponse answer = Dialects.ANTHROPIC.parseResponse(upstreamBody);
 * long tokens = answer.usage().total();
 * }</pre>
 *
 * @param id             the provider's id of the answer
 * @param model          the model that answered, as the provider names it
 * @param created        when it was created, epoch seconds
 * @param content        text and tool calls, in order
 * @param finishReason   why the model stopped
 * @param stopSequence   the stop sequence that ended it (Anthropic), or {@code null}
 * @param usage          the tokens used ({@link Usage#ZERO} when the provider reported none)
 */
public record ChatResponse(String id, String model, long created, List<ContentPart> content,
                           FinishReason finishReason, String stopSequence, Usage usage) {

    public ChatResponse {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
        content = List.copyOf(content);
        finishReason = finishReason == null ? FinishReason.STOP : finishReason;
        usage = usage == null ? Usage.ZERO : usage;
    }
}
