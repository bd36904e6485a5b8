package io.agentfuse.gateway.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transient refusal — {@code subagent_limit}, 429 with {@code Retry-After: 1} and
 * {@code x-should-retry: true} — is retried by the official SDKs at their default settings, and the
 * retry is answered once the place is free: the caller never sees the refusal. The place is held by a
 * subagent call on a raw connection that the test hangs up once the SDK has been refused, so nothing
 * depends on how long anything takes.
 */
class TransientRefusalSdkTest {

    private static final String SUBAGENT = "researcher-1";
    private static final String CONFIG = SdkGateway.CONFIG + """
            subagents:
              maxConcurrent: 1
              defaultTimeout: 60s
            """;

    private final GatewayHarness harness = GatewayHarness.start(CONFIG);

    @AfterEach
    void stop() {
        harness.close();
    }

    /** Takes the one subagent place with a call whose provider stalls; closing the socket frees it. */
    private Socket holdTheSubagentPlace(String upstreamModel, String path, String body) throws IOException {
        harness.mock.scriptForModel(upstreamModel, MockStep.builder().delayMs(120_000).times(1).build());
        URI base = URI.create(harness.gateway.baseUrl());
        Socket holder = new Socket(base.getHost(), base.getPort());
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        OutputStream out = holder.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nhost: " + base.getHost() + ":" + base.getPort()
                + "\r\ncontent-type: application/json\r\nx-api-key: sk-caller\r\nauthorization: Bearer sk-caller"
                + "\r\nanthropic-version: 2023-06-01\r\nx-agentfuse-subagent: " + SUBAGENT
                + "\r\ncontent-length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
        Eventually.holds(harness.vertx, () -> harness.mock.requests().size() == 1);
        return holder;
    }

    /** How many model requests the gateway answered with {@code status}. */
    private long answeredWith(int status) {
        return harness.metricsText().lines()
                .filter(line -> line.startsWith("agentfuse_requests_total{") && line.contains("status=\"" + status + "\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /** Once the gateway has refused the SDK's first try, hangs up the holder, which frees the place. */
    private void releaseAfterTheFirstRefusal(Socket holder) throws IOException {
        Eventually.holds(harness.vertx, () -> answeredWith(429) >= 1);
        holder.close();
    }

    /** The SDK was refused once or twice (its default two retries leave room for a slow hang-up), then answered once. */
    private void assertRefusedThenAnsweredOnce() {
        Eventually.holds(harness.vertx, () -> answeredWith(200) >= 1);
        assertThat(answeredWith(429)).isBetween(1L, 2L);
        assertThat(answeredWith(200)).isEqualTo(1);
        assertThat(harness.mock.requests()).hasSize(2); // the held call and the answered retry: refusals never go upstream
    }

    @Test
    void theAnthropicSdkRetriesASubagentLimitAndGetsItsAnswer() throws Exception {
        Socket holder = holdTheSubagentPlace("claude-haiku-4-5", "/v1/messages",
                GatewayHarness.anthropicRequest("claude-haiku-4", false).encode());
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(harness.gateway.baseUrl())
                .apiKey("sk-caller").putHeader("x-agentfuse-subagent", SUBAGENT).build();
        try {

            CompletableFuture<Message> answer = CompletableFuture.supplyAsync(() -> client.messages()
                    .create(MessageCreateParams.builder().model("claude-haiku-4").maxTokens(100).addUserMessage("Hi").build()));
            releaseAfterTheFirstRefusal(holder);

            assertThat(answer.get(60, TimeUnit.SECONDS).content().get(0).text().orElseThrow().text())
                    .isEqualTo("Hello from the mock provider.");
        } finally {
            client.close();
        }
        assertRefusedThenAnsweredOnce();
    }

    @Test
    void theOpenAiSdkRetriesASubagentLimitAndGetsItsAnswer() throws Exception {
        Socket holder = holdTheSubagentPlace("gpt-4o-mini", "/v1/chat/completions",
                GatewayHarness.openAiRequest("gpt-4o-mini", false).encode());
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(harness.gateway.baseUrl() + "/v1")
                .apiKey("sk-caller").putHeader("x-agentfuse-subagent", SUBAGENT).build();
        try {

            CompletableFuture<ChatCompletion> answer = CompletableFuture.supplyAsync(() -> client.chat().completions()
                    .create(ChatCompletionCreateParams.builder().model("gpt-4o-mini").maxTokens(100).addUserMessage("Hi").build()));
            releaseAfterTheFirstRefusal(holder);

            assertThat(answer.get(60, TimeUnit.SECONDS).choices().get(0).message().content().orElseThrow())
                    .isEqualTo("Hello from the mock provider.");
        } finally {
            client.close();
        }
        assertRefusedThenAnsweredOnce();
    }
}
