package io.agentfuse.gateway.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.MessageCreateParams;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official OpenAI and Anthropic Java SDKs, with their default retries (2), meet a spent budget:
 * each raises the 429 {@code budget_exceeded} at once — {@code x-should-retry: false} — and the
 * gateway sees exactly one request per call.
 */
class BudgetRefusalSdkTest {

    private GatewayHarness gateway;
    private OpenAIClient openAi;
    private AnthropicClient anthropic;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
                budgets:
                  everything: { scope: global, tokens: 100 }
                """);
        gateway.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).build());
        openAi = OpenAIOkHttpClient.builder().baseUrl(gateway.gateway.baseUrl() + "/v1").apiKey("sk-caller").build();
        anthropic = AnthropicOkHttpClient.builder().baseUrl(gateway.gateway.baseUrl()).apiKey("sk-caller").build();
        anthropic.messages().create(MessageCreateParams.builder().model("claude-haiku-4").maxTokens(100)
                .addUserMessage("Hi").build()); // spends the budget
        waitForRequests(1);
    }

    @AfterEach
    void stop() {
        openAi.close();
        anthropic.close();
        gateway.close();
    }

    private void waitForRequests(long expected) {
        Eventually.holds(gateway.vertx, () -> gateway.gatewayRequests() >= expected);
        assertThat(gateway.gatewayRequests()).isEqualTo(expected);
    }

    @Test
    void theOpenAiSdkRaisesTheRefusalWithoutRetryingIt() {
        ChatCompletionCreateParams ask = ChatCompletionCreateParams.builder().model("gpt-4o-mini").maxTokens(100)
                .addUserMessage("Hi").build();

        assertThatThrownBy(() -> openAi.chat().completions().create(ask))
                .isInstanceOfSatisfying(com.openai.errors.RateLimitException.class, refused -> {
                    assertThat(refused.type()).contains("budget_exceeded");
                    assertThat(refused.code()).contains("insufficient_quota");
                    assertThat(refused.headers().values("x-agentfuse-budget")).singleElement()
                            .satisfies(value -> assertThat(value).startsWith("everything; scope=global; remaining=0; resets="));
                });
        waitForRequests(2);
    }

    @Test
    void theAnthropicSdkRaisesTheRefusalWithoutRetryingIt() {
        MessageCreateParams ask = MessageCreateParams.builder().model("claude-haiku-4").maxTokens(100).addUserMessage("Hi").build();

        assertThatThrownBy(() -> anthropic.messages().create(ask))
                .isInstanceOf(com.anthropic.errors.RateLimitException.class)
                .hasMessageContaining("budget_exceeded").hasMessageContaining("everything");
        waitForRequests(2);
    }
}
