package io.agentfuse.gateway.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.Tool;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chain agents run on, {@code claude-sonnet-4} on Anthropic, then the same model on Bedrock, then
 * on Vertex AI, then {@code gemini-2.5-pro} on the Gemini API, then {@code gpt-4.1} on Azure OpenAI,
 * each provider the mock of its real API (SigV4 checked with the mock's AWS secret, Vertex's bearer
 * token issued by its token endpoint to the service account of the credentials file, Gemini's and
 * Azure's keys): the official OpenAI and Anthropic SDKs, as callers, get their answer, complete and
 * streamed, with a tool call, from whichever step the failures of the ones before leave, each
 * provider's failure the one it really sends (Anthropic's 529, Bedrock's ThrottlingException,
 * Vertex's RESOURCE_EXHAUSTED, Gemini's 503 UNAVAILABLE).
 */
class CloudProviderChainSdkTest {

    /**
     * The {@code vertex} provider of the cloud tests, an entry of {@code providers:}: the mock's Vertex AI, its
     * credentials the service account file {@link #start} writes for a project the mock issues tokens for.
     */
    static final String VERTEX_PROVIDER = """
              vertex:
                type: vertex
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                project: agentfuse-test
                location: us-east5
                credentials: ${VERTEX_CREDENTIALS}
            """;

    static final String CONFIG = """
            server: { port: 0 }
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: sk-ant-configured }
              bedrock:
                type: bedrock
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                region: us-east-1
                accessKeyId: ${AWS_ACCESS_KEY_ID}
                secretAccessKey: ${AWS_SECRET_ACCESS_KEY}
              gemini: { type: gemini, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "${GEMINI_KEY}" }
              azure:
                type: azure
                baseUrl: "http://127.0.0.1:${MOCK_PORT}/openai/v1"
                apiKey: ${AZURE_KEY}
                apiVersion: preview
            """ + VERTEX_PROVIDER + """
            retry: { maxAttempts: 1 }
            breakers:
              default: { consecutive5xx: 100, consecutive429: 100, consecutiveErrors: 100 }
            models:
              claude-sonnet-4:
                provider: anthropic
                upstreamModel: claude-sonnet-4-6
                fallbacks: [claude-on-bedrock, claude-on-vertex, gemini-2.5-pro, gpt-4.1]
              claude-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0" }
              claude-on-vertex: { provider: vertex, upstreamModel: "claude-sonnet-4@20250514" }
              gemini-2.5-pro: { provider: gemini }
              gpt-4.1: { provider: azure, upstreamModel: gpt-41-deployment }
            """;

    /** The upstream models of the chain, in order, and the failure each one's provider sends. */
    private static final List<String> CHAIN = List.of("claude-sonnet-4-6", "anthropic.claude-sonnet-4-20250514-v1:0",
            "claude-sonnet-4@20250514", "gemini-2.5-pro", "gpt-41-deployment");
    private static final List<MockStep> FAILURES = List.of(
            MockStep.builder().status(529).times(4).build(),
            MockStep.builder().status(429).errorType("ThrottlingException").times(4).build(),
            MockStep.builder().status(429).times(4).build(),
            MockStep.builder().status(503).times(4).build());

    private GatewayHarness harness;
    private OpenAIClient openAi;
    private AnthropicClient anthropic;

    /** The gateway of {@link #CONFIG}, its secrets those the mock accepts, Vertex's from a service account it trusts. */
    static GatewayHarness start(String config, Path dir) {
        return GatewayHarness.start(config, mock -> {
            MockCredentials keys = mock.credentials();
            return Map.of("AWS_ACCESS_KEY_ID", keys.awsAccessKeyId(), "AWS_SECRET_ACCESS_KEY", keys.awsSecretAccessKey(),
                    "GEMINI_KEY", keys.geminiApiKey(), "AZURE_KEY", keys.azureApiKey(),
                    "VERTEX_CREDENTIALS", serviceAccountFile(mock, dir).toString());
        });
    }

    static Path serviceAccountFile(MockProvider mock, Path dir) {
        try {
            Path file = Files.createTempFile(dir, "service-account", ".json");
            return Files.writeString(file, mock.newVertexServiceAccount("agentfuse-test").json().encodePrettily());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterEach
    void stop() {
        if (openAi != null) {
            openAi.close();
            anthropic.close();
        }
        harness.close();
    }

    @ParameterizedTest(name = "the first {0} providers fail")
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void theChainFallsOverStepByStepAndEachCallerGetsTheToolCallCompleteAndStreamed(int failing,
                                                                                    @org.junit.jupiter.api.io.TempDir Path dir) {
        harness = start(CONFIG, dir);
        openAi = OpenAIOkHttpClient.builder().baseUrl(harness.gateway.baseUrl() + "/v1").apiKey("sk-caller").maxRetries(0).build();
        anthropic = AnthropicOkHttpClient.builder().baseUrl(harness.gateway.baseUrl()).apiKey("sk-caller").maxRetries(0).build();
        for (int i = 0; i < failing; i++) {
            harness.mock.scriptForModel(CHAIN.get(i), FAILURES.get(i));
        }
        String serving = CHAIN.get(failing);
        harness.mock.scriptForModel(serving, MockStep.builder().text("Checking.")
                .toolCall("call_1", "get_weather", new JsonObject().put("city", "Paris")).times(4).build());

        assertOpenAiCallerGetsTheToolCall();
        assertAnthropicCallerGetsTheToolCall();

        for (int i = 0; i < CHAIN.size(); i++) {
            int expected = i <= failing ? 4 : 0;
            assertThat(harness.mock.requestsFor(CHAIN.get(i))).as("requests for %s", CHAIN.get(i)).hasSize(expected);
        }
        for (RecordedRequest request : harness.mock.requestsFor(serving)) {
            assertThat(request.body()).as("the tool, in %s's format", serving).contains("get_weather");
        }
    }

    private void assertOpenAiCallerGetsTheToolCall() {
        ChatCompletionCreateParams ask = ChatCompletionCreateParams.builder().model("claude-sonnet-4").maxCompletionTokens(200)
                .addSystemMessage("Use the tools.").addUserMessage("Weather in Paris?")
                .addTool(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name("get_weather")
                        .description("The weather of a city").parameters(FunctionParameters.builder()
                                .putAdditionalProperty("type", com.openai.core.JsonValue.from("object"))
                                .putAdditionalProperty("properties", com.openai.core.JsonValue.from(
                                        Map.of("city", Map.of("type", "string"))))
                                .build()).build()).build())
                .build();

        ChatCompletion answer = openAi.chat().completions().create(ask);
        var call = answer.choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction().function();
        assertThat(call.name()).isEqualTo("get_weather");
        assertThat(new JsonObject(call.arguments())).isEqualTo(new JsonObject().put("city", "Paris"));

        StringBuilder name = new StringBuilder();
        StringBuilder arguments = new StringBuilder();
        try (var stream = openAi.chat().completions().createStreaming(ask)) {
            stream.stream().flatMap(chunk -> chunk.choices().stream())
                    .flatMap(choice -> choice.delta().toolCalls().orElse(List.of()).stream())
                    .forEach(delta -> delta.function().ifPresent(function -> {
                        function.name().ifPresent(name::append);
                        function.arguments().ifPresent(arguments::append);
                    }));
        }
        assertThat(name).hasToString("get_weather");
        assertThat(new JsonObject(arguments.toString())).isEqualTo(new JsonObject().put("city", "Paris"));
    }

    private void assertAnthropicCallerGetsTheToolCall() {
        MessageCreateParams ask = MessageCreateParams.builder().model("claude-sonnet-4").maxTokens(200)
                .system("Use the tools.").addUserMessage("Weather in Paris?")
                .addTool(Tool.builder().name("get_weather").description("The weather of a city")
                        .inputSchema(Tool.InputSchema.builder().properties(com.anthropic.core.JsonValue.from(
                                Map.of("city", Map.of("type", "string")))).build()).build())
                .build();

        Message answer = anthropic.messages().create(ask);
        var toolUse = answer.content().stream().flatMap(block -> block.toolUse().stream()).findFirst().orElseThrow();
        assertThat(toolUse.name()).isEqualTo("get_weather");
        assertThat(toolUse._input().convert(Map.class)).isEqualTo(Map.of("city", "Paris"));

        StringBuilder name = new StringBuilder();
        StringBuilder input = new StringBuilder();
        try (StreamResponse<RawMessageStreamEvent> stream = anthropic.messages().createStreaming(ask)) {
            stream.stream().forEach(event -> {
                event.contentBlockStart().flatMap(start -> start.contentBlock().toolUse())
                        .ifPresent(use -> name.append(use.name()));
                event.contentBlockDelta().flatMap(delta -> delta.delta().inputJson())
                        .ifPresent(json -> input.append(json.partialJson()));
            });
        }
        assertThat(name).hasToString("get_weather");
        assertThat(new JsonObject(input.toString())).isEqualTo(new JsonObject().put("city", "Paris"));
    }
}
