package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.agent.tokens.ModelName;

/**
 * What a Claude model does with a request whose prompt and {@code max_tokens} together exceed its
 * window. The 4.5 models and later take it, and end an answer that reaches the window with
 * {@code stop_reason: model_context_window_exceeded}; Claude 3.7 to 4.1 refuse it with 400 ("input length
 * and `max_tokens` exceed context limit"), unless asked with the beta header
 * {@code model-context-window-exceeded-2025-08-26} (Anthropic's Sonnet 4.5 migration notes). Read from the
 * model's name ({@link ModelName#claudeVersion()}) as Anthropic, Bedrock and Vertex AI write it ({@code claude-sonnet-4-5-20250929},
 * {@code anthropic.claude-haiku-4-5-20251001-v1:0}, {@code claude-opus-4-1@20250805},
 * {@code claude-3-7-sonnet-latest}); a name it cannot read is taken to refuse, the safe side. Stateless.
 *
 * <pre>{@code
 * WindowOvershoot.stopsAtWindow("claude-sonnet-4-5"); // true
 * WindowOvershoot.stopsAtWindow("claude-3-7-sonnet-20250219"); // false
 * }</pre>
 */
public final class WindowOvershoot {

    /** Claude 4.5, as {@link ModelName#claudeVersion()} writes it. */
    private static final int FIRST_TO_STOP = 405;

    private WindowOvershoot() {
    }

    /** Whether {@code model} takes a prompt and {@code max_tokens} beyond its window, stopping at the window. */
    public static boolean stopsAtWindow(String model) {
        return ModelName.of(model).claudeVersion() >= FIRST_TO_STOP;
    }
}
