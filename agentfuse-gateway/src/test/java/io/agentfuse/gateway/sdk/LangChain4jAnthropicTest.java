package io.agentfuse.gateway.sdk;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;

import java.util.List;
import java.util.Map;

/** LangChain4j's Anthropic models behind the gateway ({@link LangChain4jContract}). */
class LangChain4jAnthropicTest extends LangChain4jContract {

    private AnthropicChatModel.AnthropicChatModelBuilder builder(String name) {
        return AnthropicChatModel.builder().baseUrl(gateway.baseUrl() + "/v1/").apiKey("sk-caller").modelName(name)
                .maxRetries(0);
    }

    @Override
    ChatModel model(String name) {
        return builder(name).build();
    }

    @Override
    StreamingChatModel streamingModel(String name) {
        return AnthropicStreamingChatModel.builder().baseUrl(gateway.baseUrl() + "/v1/").apiKey("sk-caller").modelName(name).build();
    }

    @Override
    String ownModel() {
        return "claude-haiku-4";
    }

    @Override
    String ownUpstreamModel() {
        return "claude-haiku-4-5";
    }

    @Override
    String otherModel() {
        return "gpt-4o-mini";
    }

    @Override
    String family() {
        return "claude";
    }

    @Override
    ChatModel untranslatableModel() {
        return builder("gpt-4o-mini").customParameters(Map.of("mcp_servers", List.of(Map.of("type", "url", "url", "https://mcp.example/sse", "name", "x")))).build();
    }

    @Override
    String untranslatableField() {
        return "mcp_servers";
    }
}
