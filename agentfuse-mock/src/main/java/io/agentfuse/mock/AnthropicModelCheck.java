package io.agentfuse.mock;

import java.util.Locale;
import java.util.Set;

/**
 * The Claude model names the Messages API answers 404 {@code not_found_error} for, with its message
 * ({@code {"type": "error", "error": {"type": "not_found_error", "message": "model: claude-haiku-4"}}}):
 * names of a model line that were never a model ID ({@code claude-haiku-4}: there was no Haiku 4.0,
 * the line's model is Haiku 4.5, {@code claude-haiku-4-5}; {@code claude-sonnet-4}, {@code claude-opus-4}:
 * Anthropic's IDs of Sonnet and Opus 4 were dated, their aliases {@code -4-0}) and the IDs and aliases of
 * Claude Sonnet 4 and Opus 4, retired on 15 June 2026 (Anthropic's model deprecations page). An explicit
 * list, not a rule: the tests name many models Anthropic has never had, and the mock serves them as a
 * stand-in for any model; a name here is one that a configuration could send by mistake. The mock keeps
 * its own list, not the gateway's, so that it catches a gateway that sends one of these. Stateless.
 */
final class AnthropicModelCheck {

    static final Set<String> NOT_SERVED = Set.of("claude-haiku-4", "claude-sonnet-4", "claude-opus-4",
            "claude-sonnet-4-0", "claude-opus-4-0", "claude-sonnet-4-20250514", "claude-opus-4-20250514");

    private AnthropicModelCheck() {
    }

    /** Anthropic's message for {@code model} when the API serves no model of that name, or {@code null}. */
    static String problem(String model) {
        return model != null && NOT_SERVED.contains(model.toLowerCase(Locale.ROOT)) ? "model: " + model : null;
    }
}
