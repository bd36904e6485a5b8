package io.agentfuse.mock;

import java.util.Locale;
import java.util.Set;

/**
 * The OpenAI model names Chat Completions and the Responses API answer 404 {@code model_not_found}
 * for, with OpenAI's message ({@code "The model `gpt-4.5-preview` does not exist or you do not have
 * access to it."}): models OpenAI has shut down (GPT-4.5 Preview on 14 July 2025, o1-preview on 28 July
 * 2025, GPT-4-32k on 6 June 2025, GPT-4 Vision Preview in December 2024; OpenAI's deprecations page).
 * An explicit list, not a rule, as {@link AnthropicModelCheck}'s: the tests name many models no vendor
 * has, which the mock serves as a stand-in for any model. Stateless.
 */
final class OpenAiModelCheck {

    static final Set<String> NOT_SERVED = Set.of("gpt-4.5-preview", "gpt-4.5-preview-2025-02-27", "o1-preview",
            "o1-preview-2024-09-12", "gpt-4-32k", "gpt-4-32k-0613", "gpt-4-vision-preview");

    private OpenAiModelCheck() {
    }

    /** OpenAI's message for {@code model} when the API serves no model of that name, or {@code null}. */
    static String problem(String model) {
        return model != null && NOT_SERVED.contains(model.toLowerCase(Locale.ROOT))
                ? "The model `" + model + "` does not exist or you do not have access to it." : null;
    }
}
