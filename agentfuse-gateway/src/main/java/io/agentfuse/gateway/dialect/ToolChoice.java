package io.agentfuse.gateway.dialect;

import java.util.Objects;

/**
 * Whether and which tool the model must call, and whether it may call several at once.
 *
 * <table>
 *   <caption>tool choice</caption>
 *   <tr><th>mode</th><th>OpenAI {@code tool_choice}</th><th>Anthropic {@code tool_choice.type}</th></tr>
 *   <tr><td>AUTO</td><td>"auto"</td><td>auto</td></tr>
 *   <tr><td>REQUIRED</td><td>"required"</td><td>any</td></tr>
 *   <tr><td>NONE</td><td>"none"</td><td>none</td></tr>
 *   <tr><td>TOOL</td><td>{type: function, function: {name}}</td><td>tool (+ name)</td></tr>
 * </table>
 * {@code parallel == false} is OpenAI's {@code parallel_tool_calls: false} and Anthropic's
 * {@code disable_parallel_tool_use: true}.
 *
 * <p>Immutable. {@code new ToolChoice(Mode.TOOL, "get_weather", true)}
 *
 * @param mode     the mode
 * @param name     the tool for {@link Mode#TOOL}, else {@code null}
 * @param parallel whether several tool calls in one answer are allowed (default true)
 */
public record ToolChoice(Mode mode, String name, boolean parallel) {

    /** The modes, see the table above. */
    public enum Mode { AUTO, REQUIRED, NONE, TOOL }

    public ToolChoice {
        Objects.requireNonNull(mode, "mode");
        if ((mode == Mode.TOOL) != (name != null)) {
            throw new IllegalArgumentException("a tool name is required for mode TOOL and only for it, but mode was "
                    + mode + " and name " + name);
        }
    }
}
