package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LangChain4j's messages as the agent module's {@link Conversation} and back, so the context
 * ladder and compaction can work on a chat memory. Each message remembers which LangChain4j
 * message it stands for, so the messages a compaction keeps come back as the very same objects
 * (images, attributes and all); only a summary or a snip marker is new. Pure functions.
 */
final class LangChain4jConversations {

    private static final String INDEX = "langchain4j.index";

    private LangChain4jConversations() {
    }

    /** {@code messages} as a conversation; a system message is never summarised or snipped. */
    static Conversation toConversation(List<ChatMessage> messages) {
        List<Message> converted = new ArrayList<>(messages.size());
        for (int index = 0; index < messages.size(); index++) {
            ChatMessage message = messages.get(index);
            converted.add(new Message(role(message), blocks(message), false, Map.of(INDEX, Integer.toString(index))));
        }
        return new Conversation(converted);
    }

    /** {@code conversation} as LangChain4j messages: the originals it kept, new user messages for the rest. */
    static List<ChatMessage> toMessages(Conversation conversation, List<ChatMessage> originals) {
        List<ChatMessage> messages = new ArrayList<>(conversation.size());
        for (Message message : conversation.messages()) {
            String index = message.extras().get(INDEX);
            messages.add(index != null ? originals.get(Integer.parseInt(index))
                    : message.role() == Role.SYSTEM ? SystemMessage.from(message.text()) : UserMessage.from(message.text()));
        }
        return messages;
    }

    private static Role role(ChatMessage message) {
        return switch (message.type()) {
            case SYSTEM -> Role.SYSTEM;
            case AI -> Role.ASSISTANT;
            case TOOL_EXECUTION_RESULT -> Role.TOOL;
            default -> Role.USER;
        };
    }

    private static List<ContentBlock> blocks(ChatMessage message) {
        List<ContentBlock> blocks = new ArrayList<>();
        if (message instanceof SystemMessage system) {
            blocks.add(new TextBlock(system.text()));
        } else if (message instanceof UserMessage user) {
            user.contents().forEach(content -> blocks.add(content instanceof TextContent text ? new TextBlock(text.text())
                    : new RawBlock(content.type().name().toLowerCase(Locale.ROOT), content.toString())));
        } else if (message instanceof AiMessage ai) {
            if (ai.text() != null) {
                blocks.add(new TextBlock(ai.text()));
            }
            for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
                blocks.add(new ToolUseBlock(request.id() == null ? "" : request.id(), request.name(),
                        request.arguments() == null ? "" : request.arguments()));
            }
        } else if (message instanceof ToolExecutionResultMessage result) {
            blocks.add(new ToolResultBlock(result.id() == null ? "" : result.id(), result.text(), false));
        } else {
            blocks.add(new RawBlock(message.type().name().toLowerCase(Locale.ROOT), message.toString()));
        }
        return blocks;
    }
}
