package io.agentfuse.gateway.sdk;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.SseException;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official OpenAI Java SDK's {@code responses()} behind the gateway, complete and streamed,
 * answered by an OpenAI model (the Responses API forwarded) and by a Claude model (translated):
 * the SDK's strict {@code validate()} accepts every object and event the gateway sends.
 */
class OpenAiSdkResponsesTest {

    private SdkGateway gateway;
    private OpenAIClient client;

    @BeforeEach
    void start() {
        gateway = new SdkGateway();
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("sk-caller").build();
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    private static ResponseCreateParams ask(String model) {
        return ResponseCreateParams.builder().model(model).input("Hi").instructions("Be brief.").build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4o-mini", "claude-haiku-4"})
    void createAnswersAValidResponse(String model) {
        Response answer = client.responses().create(ask(model)).validate();

        String text = answer.output().get(0).message().orElseThrow().content().get(0).outputText().orElseThrow().text();
        assertThat(text).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(answer.usage().orElseThrow().inputTokens()).isEqualTo(10L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4o-mini", "claude-haiku-4"})
    void createStreamingDeliversValidEventsEndingWithCompleted(String model) {
        List<ResponseStreamEvent> events = new ArrayList<>();
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(ask(model))) {
            stream.stream().forEach(event -> events.add(event.validate()));
        }

        StringBuilder text = new StringBuilder();
        events.forEach(event -> event.outputTextDelta().ifPresent(delta -> text.append(delta.delta())));
        assertThat(text).hasToString(MockStep.DEFAULT_TEXT);
        assertThat(events.get(0).isCreated()).isTrue();
        assertThat(events.get(events.size() - 1).completed().orElseThrow().response().output()).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4o-mini", "claude-haiku-4"})
    void aStreamThatBreaksMidWayIsRaised(String model) {
        gateway.streamsBreak();
        StringBuilder text = new StringBuilder();

        assertThatThrownBy(() -> {
            try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(ask(model))) {
                stream.stream().forEach(event -> event.outputTextDelta().ifPresent(delta -> text.append(delta.delta())));
            }
        }).isInstanceOf(SseException.class).hasMessageContaining("broke off");
        assertThat(text).hasToString("Hel");
    }

    /** The provider's own {@code event: error} (a rate limit after the first piece) reaches the SDK as its error. */
    @Test
    void givenARateLimitInsideAResponsesStreamWhenRelayedThenTheSdkRaisesTheProvidersError() {
        gateway.harness.mock.defaultStep(MockStep.builder().chunks("Hel", "lo").streamError(429).streamErrorAfterChunks(1)
                .build());
        StringBuilder text = new StringBuilder();

        assertThatThrownBy(() -> {
            try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(ask("gpt-4o-mini"))) {
                stream.stream().forEach(event -> event.outputTextDelta().ifPresent(delta -> text.append(delta.delta())));
            }
        }).isInstanceOf(SseException.class).hasMessageContaining("Rate limit reached");
        assertThat(text).hasToString("Hel");
    }

    @Test
    void aRequestThatNeedsStoredStateIsRefusedForAClaudeModelNamingTheField() {
        ResponseCreateParams params = ask("claude-haiku-4").toBuilder().previousResponseId("resp_earlier").build();

        assertThatThrownBy(() -> client.responses().create(params))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("previous_response_id");
        assertThat(gateway.harness.mock.requests()).isEmpty();
    }
}
