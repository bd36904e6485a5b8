package io.agentfuse.gateway.sdk;

import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * LangChain4j's Anthropic models behind the gateway, configured as its README advises:
 * {@code maxRetries(0)} (LangChain4j does not read {@code x-should-retry}; the gateway retries
 * and falls back already). Every failure reaches the application at once, as one request.
 */
class LangChain4jAnthropicTest {

    private SdkGateway gateway;

    @BeforeEach
    void start() {
        gateway = new SdkGateway();
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    private AnthropicChatModel model(String name) {
        return AnthropicChatModel.builder().baseUrl(gateway.baseUrl() + "/v1/").apiKey("sk-caller").modelName(name)
                .maxRetries(0).build();
    }

    private AnthropicChatModel model(String name, Map<String, Object> customParameters) {
        return AnthropicChatModel.builder().baseUrl(gateway.baseUrl() + "/v1/").apiKey("sk-caller").modelName(name)
                .customParameters(customParameters).maxRetries(0).build();
    }

    /** The streamed answer's text, or the error LangChain4j reported. */
    private CompletableFuture<String> stream(String name) {
        CompletableFuture<String> result = new CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        AnthropicStreamingChatModel.builder().baseUrl(gateway.baseUrl() + "/v1/").apiKey("sk-caller").modelName(name).build()
                .chat("Hi", new StreamingChatResponseHandler() {
                    @Override
                    public void onPartialResponse(String partial) {
                        text.append(partial);
                    }

                    @Override
                    public void onCompleteResponse(ChatResponse response) {
                        result.complete(text.toString());
                    }

                    @Override
                    public void onError(Throwable error) {
                        result.completeExceptionally(error);
                    }
                });
        return result;
    }

    @Test
    void answersCompleteAndStreamed() throws Exception {
        assertThat(model("claude-haiku-4").chat("Hi")).isEqualTo("Hello from the mock provider.");
        assertThat(stream("gpt-4o-mini").get(60, TimeUnit.SECONDS)).isEqualTo("Hello from the mock provider.");
    }

    @Test
    void circuitOpenWithALongRetryAfterIsRaisedAtOnce() {
        gateway.trip("claude-long-open", "claude-long-open");
        long before = gateway.requests();

        assertThatThrownBy(() -> model("claude-long-open").chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"circuit_open\"");
        gateway.assertRequestsReceived(before + 1);
    }

    @Test
    void circuitOpenWithAShortRetryAfterIsRaisedAtOnceToo() {
        gateway.trip("claude-haiku-4", "claude-haiku-4-5");
        long before = gateway.requests();

        assertThatThrownBy(() -> model("claude-haiku-4").chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"circuit_open\"");
        gateway.assertRequestsReceived(before + 1);
    }

    @Test
    void a502IsRaisedAsOneRequest() {
        gateway.upstreamFails();

        assertThatThrownBy(() -> model("claude-haiku-4").chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"all_fallbacks_failed\"");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void a504IsRaisedAsOneRequest() {
        gateway.upstreamHangs();

        assertThatThrownBy(() -> model("claude-slow").chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"timeout\"");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void anUntranslatableRequestIsA400NamingTheField() {
        assertThatThrownBy(() -> model("gpt-4o-mini", Map.of("context_management", Map.of("edits", List.of()))).chat("Hi"))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("\"invalid_request\"").hasMessageContaining("context_management");
        gateway.assertRequestsReceived(1);
        assertThat(gateway.harness.mock.requests()).isEmpty();
    }

    @Test
    void aBrokenStreamIsReportedAsAnErrorNotAsAShortAnswer() {
        gateway.streamsBreak();

        assertThatThrownBy(() -> stream("claude-haiku-4").get(60, TimeUnit.SECONDS))
                .cause().isInstanceOf(LangChain4jException.class)
                // the client reports the gateway's error event or the closed connection, whichever it reads first
                .hasMessageMatching("closed|.*the stream from model claude-haiku-4 broke off.*|.*upstream_error.*");
        gateway.assertRequestsReceived(1);
    }
}
