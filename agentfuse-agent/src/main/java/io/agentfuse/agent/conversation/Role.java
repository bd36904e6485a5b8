package io.agentfuse.agent.conversation;

/**
 * Who wrote a {@link Message}.
 *
 * <p>{@link #TOOL} is the OpenAI-style role of a message that carries a tool's result; in the
 * Anthropic style the same result travels as a {@link ToolResultBlock} inside a {@link #USER}
 * message. Both forms are understood everywhere in this module.
 */
public enum Role {
    /** Instructions that frame the whole session; never summarised or snipped away. */
    SYSTEM,
    /** The person (or program) driving the agent, including tool results in the Anthropic style. */
    USER,
    /** The model. */
    ASSISTANT,
    /** A tool's answer, in the OpenAI style. */
    TOOL
}
