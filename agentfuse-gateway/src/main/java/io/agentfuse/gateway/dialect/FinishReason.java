package io.agentfuse.gateway.dialect;

/**
 * Why the model stopped, with the one table that maps it between the dialects.
 *
 * <table>
 *   <caption>finish reasons</caption>
 *   <tr><th>neutral</th><th>OpenAI {@code finish_reason}</th><th>Anthropic {@code stop_reason}</th></tr>
 *   <tr><td>STOP</td><td>stop</td><td>end_turn (also pause_turn)</td></tr>
 *   <tr><td>LENGTH</td><td>length</td><td>max_tokens (also model_context_window_exceeded)</td></tr>
 *   <tr><td>TOOL_CALLS</td><td>tool_calls (also function_call)</td><td>tool_use</td></tr>
 *   <tr><td>STOP_SEQUENCE</td><td>stop</td><td>stop_sequence</td></tr>
 *   <tr><td>CONTENT_FILTER</td><td>content_filter</td><td>refusal</td></tr>
 * </table>
 *
 * <p>Unknown values read as STOP: an answer that ended for a reason we do not know is still a
 * complete answer. {@code FinishReason.fromAnthropic("tool_use").openAi()} is {@code "tool_calls"}.
 */
public enum FinishReason {
    STOP("stop", "end_turn"),
    LENGTH("length", "max_tokens"),
    TOOL_CALLS("tool_calls", "tool_use"),
    STOP_SEQUENCE("stop", "stop_sequence"),
    CONTENT_FILTER("content_filter", "refusal");

    private final String openAi;
    private final String anthropic;

    FinishReason(String openAi, String anthropic) {
        this.openAi = openAi;
        this.anthropic = anthropic;
    }

    /** The OpenAI {@code finish_reason}. */
    public String openAi() {
        return openAi;
    }

    /** The Anthropic {@code stop_reason}. */
    public String anthropic() {
        return anthropic;
    }

    /** Reads an OpenAI {@code finish_reason}; {@code null} when absent. */
    public static FinishReason fromOpenAi(String value) {
        if (value == null) {
            return null;
        }
        return switch (value) {
            case "length" -> LENGTH;
            case "tool_calls", "function_call" -> TOOL_CALLS;
            case "content_filter" -> CONTENT_FILTER;
            default -> STOP;
        };
    }

    /** Reads an Anthropic {@code stop_reason}; {@code null} when absent. */
    public static FinishReason fromAnthropic(String value) {
        if (value == null) {
            return null;
        }
        return switch (value) {
            case "max_tokens", "model_context_window_exceeded" -> LENGTH;
            case "tool_use" -> TOOL_CALLS;
            case "stop_sequence" -> STOP_SEQUENCE;
            case "refusal" -> CONTENT_FILTER;
            default -> STOP;
        };
    }
}
