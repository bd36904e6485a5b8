package io.agentfuse.gateway.sdk;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;

import java.util.Map;

/** LangChain4j's OpenAI models behind the gateway ({@link LangChain4jContract}). */
class LangChain4jOpenAiTest extends LangChain4jContract {

    private OpenAiChatModel.OpenAiChatModelBuilder builder(String name) {
        return OpenAiChatModel.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("sk-caller").modelName(name)
                .maxRetries(0);
    }

    @Override
    ChatModel model(String name) {
        return builder(name).build();
    }

    @Override
    StreamingChatModel streamingModel(String name) {
        return OpenAiStreamingChatModel.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("sk-caller").modelName(name).build();
    }

    @Override
    String ownModel() {
        return "gpt-4o-mini";
    }

    @Override
    String ownUpstreamModel() {
        return "gpt-4o-mini";
    }

    @Override
    String otherModel() {
        return "claude-haiku-4";
    }

    @Override
    String family() {
        return "gpt";
    }

    @Override
    ChatModel untranslatableModel() {
        return builder("claude-haiku-4").logitBias(Map.of("50256", -100)).build();
    }

    @Override
    String untranslatableField() {
        return "logit_bias";
    }
}
