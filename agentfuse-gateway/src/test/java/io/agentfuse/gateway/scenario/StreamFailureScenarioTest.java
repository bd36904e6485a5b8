package io.agentfuse.gateway.scenario;

import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.HangUp;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** What happens after the first byte: broken streams end with an error event; callers who leave cancel upstream. */
class StreamFailureScenarioTest {

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aStreamThatBreaksMidWayEndsWithAnAnthropicErrorEventAndCountsAsAFailure() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().chunks("one ", "two ", "three").drop(MockStep.Drop.MID_STREAM)
                .dropAfterChunks(1).build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.data()).contains("one ");
        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(last.event()).isEqualTo("error");
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("type")).isEqualTo("upstream_error");
        assertThat(reply.cutOff()).as("the connection is closed after the error event").isTrue();
        assertThat(harness.breaker("claude-haiku-4").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void streamsThatAlwaysBreakMidWayCountAsFailuresInARowNotAsSuccessThenFailure() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().chunks("one ", "two ", "three").drop(MockStep.Drop.MID_STREAM)
                .dropAfterChunks(2).times(3).build());

        for (int i = 0; i < 3; i++) {
            StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());
            assertThat(reply.data()).contains("two ");
        }

        assertThat(harness.breaker("claude-haiku-4").snapshot().counts()).containsEntry("consecutiveErrors", 3L);
    }

    @Test
    void aStreamThatBreaksMidWayEndsWithAnOpenAiErrorChunk() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().chunks("one ", "two").drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());

        StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("claude-haiku-4", true), Map.of());

        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("type")).isEqualTo("upstream_error");
        assertThat(reply.cutOff()).isTrue();
    }

    @Test
    void aStreamThatFallsSilentEndsWithATimeoutEvent() {
        // streamIdleTimeout is the longest silence allowed between two events of a stream.
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("{ provider: anthropic, upstreamModel: claude-haiku-4-5 }",
                "{ provider: anthropic, upstreamModel: claude-haiku-4-5, streamIdleTimeout: 1s }"));
        harness.mock.script(MockStep.builder().chunks("one ", "two").chunkDelayMs(10_000).build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(last.event()).isEqualTo("error");
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("type")).isEqualTo("timeout");
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("message"))
                .as("a silence, named by its key, not a call that took too long").contains("sent nothing for 1000 ms", "streamIdleTimeout");
        assertThat(reply.cutOff()).isTrue();
        assertThat(harness.breaker("claude-haiku-4").snapshot().counts()).containsEntry("consecutiveTimeouts", 1L);
    }

    @Test
    void aCallerWhoLeavesMidStreamCancelsTheUpstreamStream() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().chunks("a ", "b ", "c ", "d").chunkDelayMs(200).build());

        harness.client.hangUp("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of(), HangUp.AFTER_FIRST_EVENT);

        Eventually.holds(harness.vertx, () -> harness.mock.requests().get(0).clientDisconnected());
        assertThat(harness.breaker("claude-sonnet-4").snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @Test
    void aCallerWhoLeavesBeforeTheAnswerCancelsTheUpstreamCall() {
        harness = GatewayHarness.start();
        harness.mock.script(MockStep.builder().delayMs(10_000).build());

        // The caller leaves once the provider has the call, so that there is an upstream call to cancel.
        harness.client.hangUpWhen("/v1/chat/completions", openAiRequest("gpt-4o-mini", false), Map.of(),
                () -> harness.mock.requests().size() == 1);

        Eventually.holds(harness.vertx, () -> harness.gatewayRequests() == 1);
        assertThat(harness.mock.requests()).hasSize(1);
        Eventually.holds(harness.vertx, () -> harness.mock.requests().get(0).clientDisconnected());
    }
}
