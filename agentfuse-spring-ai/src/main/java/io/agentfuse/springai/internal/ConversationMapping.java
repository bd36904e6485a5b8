package io.agentfuse.springai.internal;

import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Spring AI messages as an agentfuse {@link Conversation} and back, for the compactor. Each agent
 * message remembers which Spring AI message it stands for, so that what compaction keeps comes back
 * as the very same Spring AI message (with its metadata and media); only what compaction writes (a
 * summary, a snip marker) becomes a new message. System messages are pinned. Stateless.
 */
public final class ConversationMapping {

    private static final String INDEX = "agentfuse.springai.index";

    private ConversationMapping() {
    }

    /** {@code messages} as a conversation. */
    public static Conversation toConversation(List<Message> messages) {
        List<io.agentfuse.agent.conversation.Message> converted = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            Role role = roleOf(message);
            converted.add(new io.agentfuse.agent.conversation.Message(role, blocksOf(message), role == Role.SYSTEM,
                    Map.of(INDEX, Integer.toString(i))));
        }
        return new Conversation(converted);
    }

    /** {@code conversation} as Spring AI messages: those of {@code originals} it kept, and new ones for the rest. */
    public static List<Message> fromConversation(Conversation conversation, List<Message> originals) {
        List<Message> messages = new ArrayList<>(conversation.size());
        for (io.agentfuse.agent.conversation.Message message : conversation.messages()) {
            String index = message.extras().get(INDEX);
            if (index != null) {
                messages.add(originals.get(Integer.parseInt(index)));
            } else if (message.role() == Role.SYSTEM) {
                messages.add(new SystemMessage(message.text()));
            } else if (message.role() == Role.ASSISTANT) {
                messages.add(new AssistantMessage(message.text()));
            } else {
                messages.add(new UserMessage(message.text()));
            }
        }
        return messages;
    }

    private static Role roleOf(Message message) {
        return switch (message.getMessageType()) {
            case SYSTEM -> Role.SYSTEM;
            case ASSISTANT -> Role.ASSISTANT;
            case TOOL -> Role.TOOL;
            default -> Role.USER;
        };
    }

    private static List<ContentBlock> blocksOf(Message message) {
        List<ContentBlock> blocks = new ArrayList<>();
        if (message instanceof ToolResponseMessage tool) {
            for (ToolResponseMessage.ToolResponse response : tool.getResponses()) {
                blocks.add(new ToolResultBlock(nonNull(response.id()), nonNull(response.responseData()), false));
            }
            return blocks;
        }
        String text = message.getText();
        if (text != null && !text.isEmpty()) {
            blocks.add(new TextBlock(text));
        }
        if (message instanceof AssistantMessage assistant) {
            for (AssistantMessage.ToolCall call : assistant.getToolCalls()) {
                blocks.add(new ToolUseBlock(nonNull(call.id()), nonNull(call.name()), nonNull(call.arguments())));
            }
        }
        return blocks;
    }

    private static String nonNull(String text) {
        return text == null ? "" : text;
    }
}
