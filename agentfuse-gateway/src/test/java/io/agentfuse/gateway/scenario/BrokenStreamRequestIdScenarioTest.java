package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream that breaks after it began has sent its 200 head without the provider's request id (a
 * success carries none of the provider's headers): the error event that ends it names the id in its
 * message, "… (provider request id req_123)", in every caller's dialect (docs/design.md §7), so that
 * the caller can quote the broken call to the provider's support.
 */
class BrokenStreamRequestIdScenarioTest {

    private static final String NOTE = "(provider request id req_broken_7)";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void anAnthropicCallerOfABrokenAnthropicStreamGetsItsRequestIdInTheErrorEvent() {
        harness.mock.script(brokenAfterOneChunk("request-id"));

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-provider-request-id")).as("the head went out before the break").isNull();
        SseEvent last = last(reply.events());
        assertThat(last.event()).isEqualTo("error");
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("message")).endsWith(" " + NOTE);
    }

    @Test
    void anOpenAiCallerOfABrokenAnthropicStreamGetsItsRequestIdInTheErrorChunk() {
        harness.mock.script(brokenAfterOneChunk("request-id"));

        StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("claude-haiku-4", true), Map.of());

        assertThat(new JsonObject(last(reply.events()).data()).getJsonObject("error").getString("message")).endsWith(" " + NOTE);
    }

    @Test
    void anOpenAiCallerOfABrokenOpenAiStreamGetsItsXRequestIdInTheErrorChunk() {
        harness.mock.script(brokenAfterOneChunk("x-request-id"));

        StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("gpt-4o-mini", true), Map.of());

        assertThat(new JsonObject(last(reply.events()).data()).getJsonObject("error").getString("message")).endsWith(" " + NOTE);
    }

    @Test
    void aResponsesCallerOfABrokenStreamGetsItsRequestIdInTheErrorAndTheFailedResponse() {
        harness.mock.script(brokenAfterOneChunk("request-id"));

        StreamReply reply = harness.client.stream("/v1/responses",
                new JsonObject().put("model", "claude-haiku-4").put("input", "Hi").put("stream", true), Map.of());

        List<SseEvent> events = reply.events();
        SseEvent error = events.get(events.size() - 2);
        assertThat(error.event()).isEqualTo("error");
        assertThat(new JsonObject(error.data()).getString("message")).endsWith(" " + NOTE);
        assertThat(last(events).data()).contains(NOTE);
    }

    @Test
    void aGeminiCallerOfABrokenStreamGetsItsRequestIdInTheErrorEvent() {
        harness.mock.script(brokenAfterOneChunk("request-id"));
        JsonObject ask = new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                .put("parts", new JsonArray().add(new JsonObject().put("text", "Hi")))));

        StreamReply reply = harness.client.stream("/v1beta/models/claude-haiku-4:streamGenerateContent?alt=sse", ask,
                Map.of("content-type", "application/json"));

        assertThat(new JsonObject(last(reply.events()).data()).getJsonObject("error").getString("message"))
                .endsWith(" " + NOTE);
    }

    @Test
    void aProvidersErrorEventMidStreamTranslatedForTheCallerNamesTheRequestIdToo() {
        harness.mock.script(MockStep.builder().chunks("one ", "two ").header("request-id", "req_broken_7")
                .streamError(529).streamErrorAfterChunks(1).build());

        StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("claude-haiku-4", true), Map.of());

        assertThat(new JsonObject(last(reply.events()).data()).getJsonObject("error").getString("message")).endsWith(" " + NOTE);
    }

    private static MockStep brokenAfterOneChunk(String idHeader) {
        return MockStep.builder().chunks("one ", "two ", "three").header(idHeader, "req_broken_7")
                .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build();
    }

    private static SseEvent last(List<SseEvent> events) {
        return events.get(events.size() - 1);
    }
}
