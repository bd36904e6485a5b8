package io.agentfuse.gateway.provider.anthropic;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Claude model does with a request whose prompt and {@code max_tokens} together exceed its
 * window. The 4.5 models and later take it, and end an answer that reaches the window with
 * {@code stop_reason: model_context_window_exceeded}; Claude 3.7 to 4.1 refuse it with 400 ("input length
 * and `max_tokens` exceed context limit"), unless asked with the beta header
 * {@code model-context-window-exceeded-2025-08-26} (Anthropic's Sonnet 4.5 migration notes). Read from the
 * model's name as Anthropic, Bedrock and Vertex AI write it ({@code claude-sonnet-4-5-20250929},
 * {@code anthropic.claude-haiku-4-5-20251001-v1:0}, {@code claude-opus-4-1@20250805},
 * {@code claude-3-7-sonnet-latest}); a name it cannot read is taken to refuse, the safe side. Stateless.
 *
 * <pre>{@code
 * WindowOvershoot.stopsAtWindow("claude-sonnet-4-5"); // true
 * WindowOvershoot.stopsAtWindow("claude-3-7-sonnet-20250219"); // false
 * }</pre>
 */
public final class WindowOvershoot {

    /** {@code claude-}, a line's name or none, the major version, and a one- or two-digit minor (not a date). */
    private static final Pattern VERSION = Pattern.compile("claude-(?:[a-z]+-)?(\\d{1,2})(?:[-.](\\d{1,2})(?!\\d))?");

    private WindowOvershoot() {
    }

    /** Whether {@code model} takes a prompt and {@code max_tokens} beyond its window, stopping at the window. */
    public static boolean stopsAtWindow(String model) {
        Matcher version = VERSION.matcher(model.toLowerCase(Locale.ROOT));
        if (!version.find()) {
            return false;
        }
        int major = Integer.parseInt(version.group(1));
        int minor = version.group(2) == null ? 0 : Integer.parseInt(version.group(2));
        return major > 4 || major == 4 && minor >= 5;
    }
}
