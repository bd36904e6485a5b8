package io.agentfuse.gateway.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.ErrorType;
import com.anthropic.models.messages.MessageCreateParams;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A provider's refusal of the request (a 4xx, passed on without retry or fallback) read by the
 * official SDKs of another dialect: an Anthropic caller of a Gemini model gets an Anthropic error,
 * typed for its status, with Google's message and the provider named; an OpenAI caller of a Claude
 * model an OpenAI one. A caller of the provider's own dialect gets the refusal as it came; of a Claude
 * model on Vertex AI, Vertex's own refusals (Google's shape) re-written, the model's as they came.
 */
class CrossDialectRefusalSdkTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: sk-ant-configured }
              gemini: { type: gemini, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "${GEMINI_KEY}" }
            """ + CloudProviderChainSdkTest.VERTEX_PROVIDER + """
            retry: { maxAttempts: 3 }
            models:
              claude-sonnet-4: { provider: anthropic, upstreamModel: claude-sonnet-4-20250514 }
              gemini-2.5-pro: { provider: gemini }
              claude-on-vertex: { provider: vertex, upstreamModel: "claude-sonnet-4@20250514" }
            """;
    private static final String GOOGLE_REFUSAL = "{\"error\":{\"code\":400,\"message\":\"Invalid JSON payload received. "
            + "Unknown name \\\"fooBar\\\" at 'generation_config': Cannot find field.\",\"status\":\"INVALID_ARGUMENT\"}}";

    private GatewayHarness harness;
    private AnthropicClient anthropic;
    private OpenAIClient openAi;

    @BeforeEach
    void start(@TempDir Path dir) {
        harness = CloudProviderChainSdkTest.start(CONFIG, dir);
        anthropic = AnthropicOkHttpClient.builder().baseUrl(harness.gateway.baseUrl()).apiKey("sk-caller").build();
        openAi = OpenAIOkHttpClient.builder().baseUrl(harness.gateway.baseUrl() + "/v1").apiKey("sk-caller").build();
    }

    @AfterEach
    void stop() {
        anthropic.close();
        openAi.close();
        harness.close();
    }

    @Test
    void anAnthropicCallerOfAGeminiModelReadsGooglesRefusalAsAnAnthropicError() {
        harness.mock.scriptForModel("gemini-2.5-pro", MockStep.builder().status(400).body(GOOGLE_REFUSAL)
                .header("content-type", "application/json; charset=UTF-8").build());

        AnthropicServiceException refused = catchThrowableOfType(AnthropicServiceException.class,
                () -> anthropic.messages().create(ask("gemini-2.5-pro")));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.errorType()).contains(ErrorType.INVALID_REQUEST_ERROR);
        assertThat(refused.apiMessage().orElseThrow()).contains("provider gemini refused the request: Invalid JSON payload received. "
                + "Unknown name \"fooBar\" at 'generation_config': Cannot find field.");
        assertThat(harness.mock.requestsFor("gemini-2.5-pro")).as("a refusal is neither retried nor fallen back from").hasSize(1);
    }

    @Test
    void anOpenAiCallerOfAClaudeModelReadsAnthropicsNotFoundAsAnOpenAiError() {
        // claude-sonnet-4-20250514 was retired in June 2026: Anthropic, and the mock, answer 404 not_found_error
        OpenAIServiceException refused = catchThrowableOfType(OpenAIServiceException.class,
                () -> openAi.chat().completions().create(ChatCompletionCreateParams.builder().model("claude-sonnet-4")
                        .addUserMessage("Hello?").build()));

        assertThat(refused.statusCode()).isEqualTo(404);
        assertThat(refused.type()).contains("invalid_request_error");
        assertThat(refused.getMessage()).contains("provider anthropic refused the request: model: claude-sonnet-4-20250514");
        assertThat(harness.mock.requestsFor("claude-sonnet-4-20250514")).hasSize(1);
    }

    @Test
    void aCallerOfTheProvidersOwnDialectReadsTheRefusalAsItCame() {
        AnthropicServiceException refused = catchThrowableOfType(AnthropicServiceException.class,
                () -> anthropic.messages().create(ask("claude-sonnet-4")));

        assertThat(refused.statusCode()).isEqualTo(404);
        assertThat(refused.errorType()).contains(ErrorType.NOT_FOUND_ERROR);
        assertThat(refused.apiMessage().orElseThrow()).isEqualTo("model: claude-sonnet-4-20250514");
        assertThat(refused.apiMessage().orElseThrow()).doesNotContain("refused the request");
    }

    @Test
    void anAnthropicCallerOfAClaudeModelOnVertexReadsVertexsOwnRefusalAsAnAnthropicError() {
        // Vertex's front door answers in Google's shape, whatever model it hosts.
        harness.mock.scriptForModel("claude-sonnet-4@20250514", MockStep.builder().status(404)
                .body("{\"error\":{\"code\":404,\"message\":\"Publisher Model `projects/agentfuse-test/locations/us-east5/"
                        + "publishers/anthropic/models/claude-sonnet-4@20250514` not found.\",\"status\":\"NOT_FOUND\"}}")
                .header("content-type", "application/json; charset=UTF-8").build());

        AnthropicServiceException refused = catchThrowableOfType(AnthropicServiceException.class,
                () -> anthropic.messages().create(ask("claude-on-vertex")));

        assertThat(refused.statusCode()).isEqualTo(404);
        assertThat(refused.errorType()).contains(ErrorType.NOT_FOUND_ERROR);
        assertThat(refused.apiMessage().orElseThrow()).contains("provider vertex refused the request: Publisher Model "
                + "`projects/agentfuse-test/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514` not found.");
    }

    @Test
    void anAnthropicCallerOfAClaudeModelOnVertexReadsTheModelsOwnRefusalAsItCame() {
        harness.mock.scriptForModel("claude-sonnet-4@20250514", MockStep.builder().status(400)
                .body("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: too large\"}}")
                .header("content-type", "application/json").build());

        AnthropicServiceException refused = catchThrowableOfType(AnthropicServiceException.class,
                () -> anthropic.messages().create(ask("claude-on-vertex")));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.errorType()).contains(ErrorType.INVALID_REQUEST_ERROR);
        assertThat(refused.apiMessage().orElseThrow()).isEqualTo("max_tokens: too large");
    }

    private static MessageCreateParams ask(String model) {
        return MessageCreateParams.builder().model(model).maxTokens(100).addUserMessage("Hello?").build();
    }
}
