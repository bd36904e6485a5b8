package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Clock;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayClient.HangUp;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay on its own: a bare loopback server streams what one chain (claude-haiku-4, an
 * Anthropic model) answers to an OpenAI caller through a {@link StreamRelay}.
 */
class StreamRelayTest {

    private final PipelineFixture fixture = new PipelineFixture();
    private GatewayClient http;

    @BeforeEach
    void start() {
        http = fixture.serve(ctx -> {
            ModelRequest request = fixture.request(Dialects.OPENAI, ctx.body().asJsonObject(), null);
            Context context = Vertx.currentContext();
            fixture.chains.run(fixture.plan(request), Delivery.stream(Dialects.OPENAI, false), new CallTrace(),
                            BudgetTicket.NONE)
                    .whenComplete((result, error) -> OnContext.run(context, () -> {
                        StreamRelay relay = new StreamRelay(ctx.response(), ctx.request().connection(), context, request,
                                result.value(), StreamContinuation.OFF, fixture.metrics, Clock.system());
                        ctx.response().closeHandler(v -> relay.clientGone());
                        relay.start(new CallTrace(), result.passed());
                    }));
        });
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private StreamReply stream() {
        return http.stream("/relay", openAiRequest("claude-haiku-4", true), Map.of());
    }

    @Test
    void aCompleteStreamIsTranslatedAndEndsWithItsTerminator() {
        StreamReply reply = stream();

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).isEqualTo("text/event-stream");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.data()).contains("\"object\":\"chat.completion.chunk\"", "Hello ");
        assertThat(reply.events().get(reply.events().size() - 1).isDone()).isTrue();
        assertThat(reply.cutOff()).isFalse();
    }

    @Test
    void aStreamThatBreaksEndsWithAnErrorEventThenAClosedConnectionAndCountsAFailure() {
        fixture.mock.script(MockStep.builder().chunks("one ", "two").drop(MockStep.Drop.MID_STREAM).build());

        StreamReply reply = stream();

        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("type")).isEqualTo("upstream_error");
        assertThat(reply.cutOff()).isTrue();
        assertThat(fixture.runtime.registry().find("model:claude-haiku-4").orElseThrow().snapshot().counts())
                .containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void aProviderErrorEventInTheStreamIsTranslatedAndCountedAsItsKind() {
        String opening = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"claude-haiku-4-5\",\"content\":[],\"usage\":{\"input_tokens\":5,\"output_tokens\":0}}}\n\n";
        // Some text first: an error before any content would be a failed attempt, never relayed.
        String text = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
                + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n";
        String error = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        fixture.mock.script(MockStep.builder().body(opening + text + error).build());

        StreamReply reply = stream();

        SseEvent last = reply.events().get(reply.events().size() - 1);
        JsonObject relayed = new JsonObject(last.data()).getJsonObject("error");
        assertThat(relayed.getString("type")).as("an overload, as OpenAI types it in a stream").isEqualTo("server_error");
        assertThat(relayed.getString("message")).as("the provider's message, then its request id (the head had none)")
                .matches("Overloaded \\(provider request id req_[0-9a-f]{32}\\)");
        assertThat(reply.cutOff()).isTrue();
        assertThat(fixture.runtime.registry().find("model:claude-haiku-4").orElseThrow().snapshot().counts())
                .containsEntry("consecutive429", 1L);
    }

    @Test
    void aCallerWhoLeavesCancelsTheUpstreamStreamWithoutCountingAFailure() {
        fixture.mock.script(MockStep.builder().chunks("a ", "b ", "c").chunkDelayMs(300).build());

        http.hangUp("/relay", openAiRequest("claude-haiku-4", true), Map.of(), HangUp.AFTER_FIRST_EVENT);

        Eventually.holds(fixture.vertx, () -> fixture.mock.requests().get(0).clientDisconnected());
        assertThat(fixture.runtime.registry().find("model:claude-haiku-4").orElseThrow().snapshot().counts())
                .containsEntry("consecutiveErrors", 0L);
    }
}
