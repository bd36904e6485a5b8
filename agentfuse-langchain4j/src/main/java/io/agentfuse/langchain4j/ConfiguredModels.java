package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;

import java.util.Set;

/**
 * The decorators {@link AgentfuseLangChain4j} hands out: each calls the decorator built for the
 * runtime's configuration in force ({@link Following}), so a reload reaches it.
 */
final class ConfiguredModels {

    private ConfiguredModels() {
    }

    /** A chat model that follows the configuration. */
    record Chat(Following<GuardedChatModel> model) implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            return model.current().doChat(request);
        }

        @Override
        public Set<Capability> supportedCapabilities() {
            return model.current().supportedCapabilities();
        }

        @Override
        public ModelProvider provider() {
            return model.current().provider();
        }
    }

    /** A streaming chat model that follows the configuration. */
    record Streaming(Following<GuardedStreamingChatModel> model) implements StreamingChatModel {
        @Override
        public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
            model.current().doChat(request, handler);
        }

        @Override
        public Set<Capability> supportedCapabilities() {
            return model.current().supportedCapabilities();
        }

        @Override
        public ModelProvider provider() {
            return model.current().provider();
        }
    }

    /** A tool executor that follows the configuration. */
    record Tool(Following<GuardedToolExecutor> tool) implements ToolExecutor {
        @Override
        public String execute(ToolExecutionRequest request, Object memoryId) {
            return tool.current().execute(request, memoryId);
        }

        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
            return tool.current().executeWithContext(request, context);
        }
    }
}
