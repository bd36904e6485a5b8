package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutor;
import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module README's example, as written there, against the mock provider instead of the real
 * providers (only the base URLs, the keys and a retry that does not wait differ): the primary
 * fails, the fallback answers with a tool call, the approved tool runs behind its breaker, and
 * the agent answers.
 */
class ReadmeExampleTest {

    interface Assistant {
        String chat(String message);
    }

    @Test
    void theReadmeExampleRunsAsWritten() {
        Vertx vertx = Vertx.vertx();
        MockProvider mock = MockProvider.start(vertx, 0).await();
        try {
            mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(529).times(4).build());
            mock.scriptForModel("gpt-4o-mini",
                    MockStep.builder().toolCall("call_1", "web_search", new JsonObject().put("query", "breakers")).build(),
                    MockStep.builder().text("Breakers stop calling what keeps failing.").build());

            String answer = example(mock.anthropicBaseUrl() + "/v1/", mock.openAiBaseUrl());

            assertThat(answer).isEqualTo("Breakers stop calling what keeps failing.");
            assertThat(mock.requestsFor("claude-sonnet-4-5")).as("consecutive429: 2 opened it").hasSize(2);
            assertThat(mock.requestsFor("gpt-4o-mini").get(1).body()).contains("3 results for");
        } finally {
            mock.close().await();
            vertx.close().await();
        }
    }

    private static String example(String anthropicUrl, String openAiUrl) {
        // --- the README's example from here (with retries that do not wait, so the test is quick)
        AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.parse("""
                retry: { maxAttempts: 3, initialDelay: 0s }
                models:
                  claude-sonnet-4: { provider: anthropic, fallbacks: [gpt-4o-mini] }
                  gpt-4o-mini:     { provider: openai }
                tools:
                  web_search: { timeout: 30, retries: 1, circuitBreaker: { failureThreshold: 3, resetTimeout: 5m } }
                permissions: { maxConsecutiveDenials: 3 }
                """, "agentfuse.yaml", Map.of())).build();
        AgentfuseLangChain4j fuse = AgentfuseLangChain4j.of(runtime);

        Map<String, ChatModel> models = Map.of(
                "claude-sonnet-4", AnthropicChatModel.builder().baseUrl(anthropicUrl).apiKey("sk-ant-example")
                        .httpClientBuilder(new HeaderKeepingHttpClientBuilder())
                        .modelName("claude-sonnet-4-5").maxRetries(0).build(),
                "gpt-4o-mini", OpenAiChatModel.builder().baseUrl(openAiUrl).apiKey("sk-example")
                        .httpClientBuilder(new HeaderKeepingHttpClientBuilder())
                        .modelName("gpt-4o-mini").maxRetries(0).build());
        ChatModel model = fuse.chatModel("claude-sonnet-4", models::get);

        ToolSpecification webSearch = ToolSpecification.builder().name("web_search").description("Searches the web")
                .parameters(JsonObjectSchema.builder().addStringProperty("query").required("query").build()).build();
        ToolExecutor search = (request, memoryId) -> "3 results for " + request.arguments();
        PermissionBreaker permissions = runtime.permissionBreaker().build();
        ToolExecutor guardedSearch = PermissionedToolExecutor.of(fuse.toolExecutor("web_search", search), permissions,
                (call, decision) -> true); // your prompt: called only when the breaker says ASK

        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .tools(Map.of(webSearch, guardedSearch))
                .build();
        return assistant.chat("What do circuit breakers do?");
        // --- to here
    }
}
