package io.agentfuse.mock;

import java.util.Locale;
import java.util.Set;

/**
 * The Gemini model names the Gemini API answers 404 {@code NOT_FOUND} for, with Google's message
 * ({@code "models/gemini-1.5-pro is not found for API version v1beta, or is not supported for
 * generateContent. Call ListModels to see the list of available models and their supported methods."}):
 * models Google has shut down (Gemini 1.0 Pro; Gemini 1.5 Pro and Flash in September 2025; Google's
 * Gemini API deprecations page). An explicit list, not a rule, as {@link AnthropicModelCheck}'s: the tests
 * name many models no vendor has, which the mock serves as a stand-in for any model. Stateless.
 */
final class GeminiModelCheck {

    static final Set<String> NOT_SERVED = Set.of("gemini-pro", "gemini-1.0-pro", "gemini-1.5-pro", "gemini-1.5-pro-002",
            "gemini-1.5-flash", "gemini-1.5-flash-002", "gemini-1.5-flash-8b");

    private GeminiModelCheck() {
    }

    /** Google's message for {@code model} asked by {@code method} on API {@code version}, when it serves no such model; else {@code null}. */
    static String problem(String model, String version, String method) {
        return model != null && NOT_SERVED.contains(model.toLowerCase(Locale.ROOT))
                ? "models/" + model + " is not found for API version " + version + ", or is not supported for " + method
                + ". Call ListModels to see the list of available models and their supported methods." : null;
    }
}
