package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.OutputTokenCap;
import io.agentfuse.gateway.provider.anthropic.AnthropicRequestWriter;
import io.agentfuse.gateway.provider.anthropic.WindowOvershoot;
import io.vertx.core.json.JsonObject;

import java.util.function.LongSupplier;

/**
 * How much output a step asks its model for. Within the model's own limit, when it is known
 * ({@link OutputTokenCap}: a fallback that writes less than the caller asked must be asked for no more).
 * And where the step's dialect requires a limit the caller did not set — a Codex or
 * OpenAI SDK turn (no limit: "as long as the model writes") that crosses to Claude, whose
 * {@code max_tokens} is required. The writer's {@value AnthropicRequestWriter#DEFAULT_MAX_TOKENS} cut such
 * answers short — a file written by an agent ends mid-line at 4 096 tokens — so the step asks for what the
 * model writes ({@code maxOutputTokens}, when known: the table's or the operator's), within the room its
 * window leaves beside the prompt where the model would refuse to overrun it (Claude 3.7 to 4.1:
 * "input length and `max_tokens` exceed context limit"; the 4.5 models and later stop at the window
 * instead, {@link WindowOvershoot}). The prompt is taken at the context stage's bound
 * ({@link ContextStage#inputTokens}, no lower than a counter's count, as budgets reserve it; loose for a
 * long prompt), so the room is never overstated. Never below the writer's default, which is what a request
 * near its window or of a model with no known limit gets, as before.
 * Stateless.
 *
 * <pre>{@code
 * StepOutputLimit.apply(body, chat, model, context); // {"max_tokens": 4096} -> 64000 for claude-sonnet-4-5, prompt aside
 * }</pre>
 */
final class StepOutputLimit {

    private StepOutputLimit() {
    }

    /** Sets the output limit of {@code body}, the step's request of {@code chat} to {@code model}. */
    static void apply(JsonObject body, ChatRequest chat, ModelConfig model, ContextStage context) {
        if (!model.maxOutputTokensKnown()) {
            return; // asking more than the writer's default of a model of unknown limit may be refused
        }
        if (chat.sampling().maxTokens() == null && body.getValue("max_tokens") instanceof Number) {
            body.put("max_tokens", of(model, () -> context.inputTokens(chat, model))); // required, and the caller set none
        }
        OutputTokenCap.apply(body, model.maxOutputTokens());
    }

    /**
     * What {@code model} is asked to write beside a prompt of at most {@code promptTokens} tokens, which
     * is asked only of a model that refuses to overrun its window.
     */
    static int of(ModelConfig model, LongSupplier promptTokens) {
        if (WindowOvershoot.stopsAtWindow(model.upstreamModel())) {
            return model.maxOutputTokens(); // it stops at its window instead of refusing the request
        }
        long room = model.contextWindow() - promptTokens.getAsLong();
        return (int) Math.max(AnthropicRequestWriter.DEFAULT_MAX_TOKENS, Math.min(model.maxOutputTokens(), room));
    }
}
