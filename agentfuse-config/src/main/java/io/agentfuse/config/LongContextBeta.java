package io.agentfuse.config;

import java.util.Locale;
import java.util.Set;

/**
 * Anthropic's 1M-token context window beta, {@code anthropic-beta: context-1m-2025-08-07}: the models
 * that take it and the window a step of one of them has when its caller asks for it. The one home of
 * that decision; the built-in table of published windows ({@link ModelFamilies}) stays the window of a
 * request that does not ask.
 *
 * <p>Claude Code sends it for a model chosen with a {@code [1m]} suffix ({@code sonnet[1m]}): the
 * model id goes without the suffix and the beta asks the API for the larger window. Without the beta
 * the API refuses a prompt of more than 200 000 tokens ({@code "prompt is too long: N tokens > 200000
 * maximum"}); with it, a model that takes it reads up to 1 000 000. Anthropic's documentation named
 * Claude Sonnet 4 and Sonnet 4.5 for it (usage tier 4 and above), and Sonnet 4.6 and Opus 4.6 while
 * their 1M window was a beta; Vertex AI takes the same header. Sonnet 4.6 and Opus 4.6 now read 1M
 * without it, as do the Claude models after them: the built-in table gives them 1 000 000 (family
 * models, and configured ones that write no window), so the beta changes nothing for them; they stay
 * in the list for a configured model whose name the table does not know. A model that does not take it keeps
 * its window, as the API does. Whether an organisation may use it, and whether the beta is still
 * served for an older model, is the provider's to say: its refusal reaches the caller as it would
 * without the gateway.
 *
 * <p>A window the operator wrote ({@code models.<m>.contextWindow}) is the operator's word and is
 * neither raised nor lowered by the beta: a limit set on purpose (long prompts are billed higher)
 * holds, and one written as 1 000 000 holds without it.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * LongContextBeta.asks("context-1m-2025-08-07,fine-grained-tool-streaming-2025-05-14"); // true
 * LongContextBeta.takenBy("claude-sonnet-4-5-20250929");                                 // true
 * LongContextBeta.windowOf(model, "context-1m-2025-08-07");                              // 1000000
 * }</pre>
 */
public final class LongContextBeta {

    /** The beta's name, as sent in {@code anthropic-beta}. */
    public static final String NAME = "context-1m-2025-08-07";

    /** The window, in tokens, of a model that takes the beta when it is asked for. */
    public static final int WINDOW = 1_000_000;

    /**
     * The models that take the beta, as their Anthropic ids without a snapshot date
     * ({@code claude-sonnet-4-0} is Sonnet 4's alias).
     */
    private static final Set<String> MODELS = Set.of("claude-sonnet-4", "claude-sonnet-4-0", "claude-sonnet-4-5",
            "claude-sonnet-4-6", "claude-opus-4-6");

    private LongContextBeta() {
    }

    /** Whether an {@code anthropic-beta} value (a comma-separated list; {@code null}: none) asks for the beta. */
    public static boolean asks(String betas) {
        if (betas == null) {
            return false;
        }
        for (String beta : betas.split(",")) {
            if (beta.trim().equalsIgnoreCase(NAME)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code upstreamModel} takes the beta: one of its models, named as Anthropic names it
     * (with or without a snapshot date, {@code claude-sonnet-4-5-20250929}) or as Vertex AI does
     * ({@code claude-sonnet-4-5@20250929}).
     */
    public static boolean takenBy(String upstreamModel) {
        String name = upstreamModel.toLowerCase(Locale.ROOT);
        int version = name.indexOf('@');
        if (version >= 0) {
            name = name.substring(0, version);
        } else if (name.matches(".*-\\d{8}")) {
            name = name.substring(0, name.length() - 9);
        }
        return MODELS.contains(name);
    }

    /**
     * The window of a step of {@code model} whose request sends {@code betas} to its provider (its
     * {@code anthropic-beta}, {@code null} when it sends none): {@link #WINDOW} when the beta is asked
     * for, the model takes it and the operator wrote no window of their own; else the model's.
     */
    public static int windowOf(ModelConfig model, String betas) {
        if (model.contextWindowConfigured() || !asks(betas) || !takenBy(model.upstreamModel())) {
            return model.contextWindow();
        }
        return Math.max(model.contextWindow(), WINDOW);
    }
}
