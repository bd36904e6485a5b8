package io.agentfuse.gateway.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.InternalServerException;
import com.anthropic.errors.SseException;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official Anthropic Java SDK, with its default retries (2), behind the gateway: it obeys
 * {@code x-should-retry}, so it retries only a {@code circuit_open} that reopens soon — and that
 * retry is the breaker's half-open probe.
 */
class AnthropicSdkTest {

    private SdkGateway gateway;
    private AnthropicClient client;

    @BeforeEach
    void start() {
        gateway = new SdkGateway();
        client = AnthropicOkHttpClient.builder().baseUrl(gateway.baseUrl()).apiKey("sk-caller").build();
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    private static MessageCreateParams ask(String model) {
        return MessageCreateParams.builder().model(model).maxTokens(100).addUserMessage("Hi").build();
    }

    @Test
    void answersCompleteAndStreamed() {
        Message answer = client.messages().create(ask("claude-haiku-4"));
        StringBuilder streamed = new StringBuilder();
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(ask("gpt-4o-mini"))) {
            stream.stream().forEach(event -> event.contentBlockDelta().flatMap(delta -> delta.delta().text())
                    .ifPresent(text -> streamed.append(text.text())));
        }

        assertThat(answer.content().get(0).text().orElseThrow().text()).isEqualTo("Hello from the mock provider.");
        assertThat(streamed).hasToString("Hello from the mock provider.");
    }

    @Test
    void circuitOpenWithALongRetryAfterIsRaisedAtOnce() {
        gateway.trip("claude-long-open", "claude-long-open");
        long before = gateway.requests();

        assertThatThrownBy(() -> client.messages().create(ask("claude-long-open")))
                .isInstanceOf(InternalServerException.class)
                .hasMessageContaining("503").hasMessageContaining("circuit_open");
        gateway.assertRequestsReceived(before + 1);
    }

    @Test
    void circuitOpenWithAShortRetryAfterIsRetriedOnceAndTheRetryIsTheProbe() {
        gateway.trip("claude-haiku-4", "claude-haiku-4-5");
        long before = gateway.requests();

        Message answer = client.messages().create(ask("claude-haiku-4"));

        assertThat(answer.content().get(0).text().orElseThrow().text()).isEqualTo("Hello from the mock provider.");
        gateway.assertRequestsReceived(before + 2);
        assertThat(gateway.harness.breaker("claude-haiku-4").state().name()).isEqualTo("CLOSED");
    }

    @Test
    void a502IsNotRetriedBySdk() {
        gateway.upstreamFails();

        assertThatThrownBy(() -> client.messages().create(ask("claude-haiku-4")))
                .isInstanceOf(InternalServerException.class)
                .hasMessageContaining("502").hasMessageContaining("all_fallbacks_failed");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void a504IsNotRetriedBySdk() {
        gateway.upstreamHangs();

        assertThatThrownBy(() -> client.messages().create(ask("claude-slow")))
                .isInstanceOf(InternalServerException.class)
                .hasMessageContaining("504").hasMessageContaining("timeout");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void anUntranslatableRequestIsA400NamingTheField() {
        MessageCreateParams params = ask("gpt-4o-mini").toBuilder()
                .putAdditionalBodyProperty("mcp_servers", JsonValue.from(List.of(Map.of("type", "url",
                        "url", "https://mcp.example/sse", "name", "x"))))
                .build();

        assertThatThrownBy(() -> client.messages().create(params))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("invalid_request").hasMessageContaining("mcp_servers");
        gateway.assertRequestsReceived(1);
        assertThat(gateway.harness.mock.requests()).isEmpty();
    }

    @Test
    void aBrokenStreamIsRaisedAndNotRetried() {
        gateway.streamsBreak();
        StringBuilder streamed = new StringBuilder();

        assertThatThrownBy(() -> {
            try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(ask("claude-haiku-4"))) {
                stream.stream().forEach(event -> event.contentBlockDelta().flatMap(delta -> delta.delta().text())
                        .ifPresent(text -> streamed.append(text.text())));
            }
        }).isInstanceOf(SseException.class)
                .hasMessageContaining("upstream_error").hasMessageContaining("claude-haiku-4 broke off");
        assertThat(streamed).hasToString("Hel");
        gateway.assertRequestsReceived(1);
    }
}
