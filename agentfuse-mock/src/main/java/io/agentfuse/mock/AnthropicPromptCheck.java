package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the Messages API refuses for the length of a prompt: more tokens than the model's window,
 * with its message ({@code "prompt is too long: 208310 tokens > 200000 maximum"}), and a prompt that
 * leaves the window too little room for the {@code max_tokens} asked ({@code "input length and
 * `max_tokens` exceed context limit: 182831 + 64000 > 200000, ..."}), which Claude 3.7 to 4.1 refuse and
 * the 4.5 models and later take, stopping at the window. The window is
 * 200 000 tokens, and 1 000 000 for a model whose window is that large without a beta
 * ({@link AnthropicMediaCheck#LARGE_WINDOW_MODELS}) or for one that takes the 1M beta
 * ({@value #LONG_CONTEXT_BETA}) when the request's {@code anthropic-beta} asks for it. The mock has no
 * tokenizer: it counts a token for every {@value #CHARS_PER_TOKEN} characters of the texts and names
 * of the request's system prompt, messages and tools, and {@value #MEDIUM_TOKENS} for each image or
 * document, a rough rule; a test keeps its prompts far from a limit.
 * Stateless.
 */
final class AnthropicPromptCheck {

    static final String LONG_CONTEXT_BETA = "context-1m-2025-08-07";
    static final String OVERSHOOT_BETA = "model-context-window-exceeded-2025-08-26";
    /** The names of the Claude models that refuse a prompt and {@code max_tokens} beyond the window: 3.7, 4.0, 4.1. */
    private static final Pattern OVERSHOOT_REFUSED =
            Pattern.compile("^claude-(?:3-7-sonnet|(?:sonnet|opus)-4(?:-[01])?(?:$|-\\d{8}|@|-latest))");
    static final int WINDOW = 200_000;
    static final int LARGE_WINDOW = 1_000_000;
    static final int CHARS_PER_TOKEN = 4;
    static final int MEDIUM_TOKENS = 1_600;
    /** The models that take the 1M beta, as named without a snapshot date. */
    private static final List<String> BETA_MODELS = List.of("claude-sonnet-4", "claude-sonnet-4-0", "claude-sonnet-4-5",
            "claude-sonnet-4-6", "claude-opus-4-6");

    private AnthropicPromptCheck() {
    }

    /**
     * Anthropic's message for a prompt of {@code body} too long for {@code model} given {@code betas}, or
     * {@code null}: longer than the window, or too long beside the {@code max_tokens} asked, which
     * Claude 3.7 and later refuse rather than cut the answer short.
     */
    static String problem(JsonObject body, String model, String betas) {
        long tokens = tokens(body);
        int window = windowOf(model, betas);
        if (tokens > window) {
            return "prompt is too long: " + tokens + " tokens > " + window + " maximum";
        }
        long asked = body.getValue("max_tokens") instanceof Number max ? max.longValue() : 0;
        return tokens + asked > window && refusesOvershoot(model, betas) ? "input length and `max_tokens` exceed context limit: "
                + tokens + " + " + asked + " > " + window + ", decrease input length or `max_tokens` and try again" : null;
    }

    /**
     * Whether {@code model} refuses a prompt and {@code max_tokens} beyond its window: Claude 3.7 to 4.1,
     * unless {@code betas} ask for {@value #OVERSHOOT_BETA}; the 4.5 models and later stop at the window.
     */
    private static boolean refusesOvershoot(String model, String betas) {
        String name = model == null ? "" : model.toLowerCase(Locale.ROOT);
        boolean excused = betas != null && List.of(betas.split(",")).stream().anyMatch(beta -> beta.trim().equals(OVERSHOOT_BETA));
        return OVERSHOOT_REFUSED.matcher(name).find() && !excused;
    }

    /** The tokens the mock counts for {@code body}'s prompt. */
    static long tokens(JsonObject body) {
        long chars = 0;
        for (String field : List.of("system", "messages", "tools")) {
            chars += chars(body.getValue(field));
        }
        return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }

    /**
     * The characters the mock counts in {@code value}: its texts and names, and a flat
     * {@value #MEDIUM_TOKENS} tokens for an image or a document, whose base64 the API does not read as
     * text (it charges an image by its pixels: some 1 600 tokens for a screenshot).
     */
    private static long chars(Object value) {
        if (value instanceof String text) {
            return text.length();
        }
        long chars = 0;
        if (value instanceof JsonArray array) {
            for (Object element : array) {
                chars += chars(element);
            }
        } else if (value instanceof JsonObject object) {
            Object type = object.getValue("type");
            if (("image".equals(type) || "document".equals(type)) && object.getValue("source") instanceof JsonObject) {
                return (long) MEDIUM_TOKENS * CHARS_PER_TOKEN;
            }
            for (var entry : object) {
                chars += entry.getKey().length() + chars(entry.getValue());
            }
        } else if (value != null) {
            chars = String.valueOf(value).length();
        }
        return chars;
    }

    private static int windowOf(String model, String betas) {
        String name = model == null ? "" : model.toLowerCase(Locale.ROOT).replaceFirst("(@.*|-\\d{8})$", "");
        if (AnthropicMediaCheck.LARGE_WINDOW_MODELS.stream().anyMatch(name::startsWith)) {
            return LARGE_WINDOW;
        }
        boolean asked = betas != null && List.of(betas.split(",")).stream().anyMatch(beta -> beta.trim().equals(LONG_CONTEXT_BETA));
        return asked && BETA_MODELS.contains(name) ? LARGE_WINDOW : WINDOW;
    }
}
