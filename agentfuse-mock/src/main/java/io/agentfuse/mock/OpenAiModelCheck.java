package io.agentfuse.mock;

import java.util.Locale;
import java.util.Set;

/**
 * The OpenAI model names Chat Completions and the Responses API answer 404 {@code model_not_found}
 * for, with OpenAI's message ({@code "The model `gpt-4.5-preview` does not exist or you do not have
 * access to it."}): models OpenAI has shut down, by its deprecations page — GPT-4 Vision Preview in
 * December 2024; GPT-4-32k on 6 June 2025; GPT-4.5 Preview on 14 July 2025; o1-preview on 28 July 2025;
 * on 23 July 2026 the GPT-5 and GPT-5.1 Codex models, GPT-5.2 Codex, the GPT-5 and GPT-5.1 chat snapshots,
 * computer-use-preview and the deep-research models; on 10 August 2026 the GPT-5.2 and GPT-5.3 chat
 * snapshots; on 23 October 2026 GPT-3.5 Turbo, GPT-4, GPT-4 Turbo, the first GPT-4o snapshot, GPT-4.1 nano,
 * o1, o1-pro, o3-mini and o4-mini. (GPT-5, GPT-5 mini and nano and o3 follow on 11 December 2026, GPT-4o,
 * GPT-4o mini, GPT-4.1 and GPT-4.1 mini on 14 January 2027: served until then, as here.)
 * An explicit list, not a rule, as {@link AnthropicModelCheck}'s: the tests name many models no vendor
 * has, which the mock serves as a stand-in for any model. Stateless.
 */
final class OpenAiModelCheck {

    static final Set<String> NOT_SERVED = Set.of("gpt-4.5-preview", "gpt-4.5-preview-2025-02-27", "o1-preview",
            "o1-preview-2024-09-12", "gpt-4-32k", "gpt-4-32k-0613", "gpt-4-vision-preview",
            // 23 July 2026
            "gpt-5-codex", "gpt-5.1-codex", "gpt-5.1-codex-max", "gpt-5.1-codex-mini", "gpt-5.2-codex",
            "gpt-5-chat-latest", "gpt-5.1-chat-latest", "computer-use-preview", "computer-use-preview-2025-03-11",
            "o3-deep-research", "o3-deep-research-2025-06-26", "o4-mini-deep-research", "o4-mini-deep-research-2025-06-26",
            // 10 August 2026
            "gpt-5.2-chat-latest", "gpt-5.3-chat-latest",
            // 23 October 2026
            "gpt-3.5-turbo", "gpt-3.5-turbo-0125", "gpt-4", "gpt-4-0613", "gpt-4-1106-preview", "gpt-4-turbo",
            "gpt-4-turbo-2024-04-09", "gpt-4o-2024-05-13", "gpt-4.1-nano", "gpt-4.1-nano-2025-04-14", "o1", "o1-2024-12-17",
            "o1-pro", "o1-pro-2025-03-19", "o3-mini", "o3-mini-2025-01-31", "o4-mini", "o4-mini-2025-04-16");

    private OpenAiModelCheck() {
    }

    /** OpenAI's message for {@code model} when the API serves no model of that name, or {@code null}. */
    static String problem(String model) {
        return model != null && NOT_SERVED.contains(model.toLowerCase(Locale.ROOT))
                ? "The model `" + model + "` does not exist or you do not have access to it." : null;
    }
}
