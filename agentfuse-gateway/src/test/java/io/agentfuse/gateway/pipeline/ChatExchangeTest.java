package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Clock;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayClient.HangUp;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** One exchange from body to answer, on a bare loopback server whose only handler is a {@link ChatExchange}. */
class ChatExchangeTest {

    private final PipelineFixture fixture = new PipelineFixture(GatewayHarness.CONFIG
            + "subagents:\n  maxConcurrent: 1\n  defaultTimeout: 300ms\n");

    @AfterEach
    void stop() {
        fixture.close();
    }

    private GatewayClient serve(ContextStage context) {
        ExchangeStages stages = fixture.stages(context);
        return fixture.serve(ctx -> new ChatExchange(ctx.request(), Dialects.ANTHROPIC, stages).run(ctx.body().buffer()));
    }

    @Test
    void aRequestIsAnsweredWithTheGatewayHeaders() {
        GatewayClient http = serve(request -> Future.succeededFuture(request.withContextLevel("NORMAL")));

        Reply reply = http.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getString("type")).isEqualTo("message");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-sonnet-4");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("1");
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("NORMAL");
    }

    @Test
    void finishedExchangesLeaveNothingBehindInTheInFlightRegistry() {
        // Given a server whose requests each run on a context of their own (Vert.x duplicates the loop's per request)
        ExchangeStages stages = fixture.stages(request -> Future.succeededFuture(request.withContextLevel("NORMAL")));
        GatewayClient http = fixture.serve(ctx -> new ChatExchange(ctx.request(), Dialects.ANTHROPIC,
                stages).run(ctx.body().buffer()));

        // When many requests have been answered
        for (int i = 0; i < 50; i++) {
            assertThat(http.post("/v1/messages", anthropicRequest("claude-sonnet-4", false)).status()).isEqualTo(200);
        }

        // Then the registry keeps one list per event loop, not one per request that ever ran
        assertThat(stages.inFlight().loops()).isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors() * 2);
    }

    @Test
    void aContextStageThatRefusesEndsTheExchangeBeforeAnyUpstreamCall() {
        GatewayClient http = serve(request -> Future.failedFuture(
                new GatewayException(GatewayError.CONTEXT_WINDOW_FULL, "context window full")));

        Reply reply = http.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(fixture.mock.requests()).isEmpty();
    }

    @Test
    void aFaultOfTheGatewayWhileReadingTheRequestIsAJson500NotAHang() {
        // Given stages whose configuration cannot be read (a bug of the gateway's own)
        assertAFaultWhileReadingIsAnswered(new IllegalStateException("no configuration"), 500, "internal_error");
    }

    @Test
    void runningOutOfMemoryWhileReadingTheRequestIsAShortOverloadNotAHang() {
        // Given a heap that runs out while the request is read (a large body at a small heap): the
        // Error escaped the exchange, Vert.x logged it, and the caller waited for ever. Now it is
        // answered as the load it comes from: 429 overloaded, come back in a second.
        Reply reply = assertAFaultWhileReadingIsAnswered(new OutOfMemoryError("Java heap space"), 429, "overloaded");
        assertThat(reply.headers().get("retry-after")).isEqualTo("1");
    }

    private Reply assertAFaultWhileReadingIsAnswered(Throwable fault, int status, String type) {
        ExchangeStages broken = new ExchangeStages(() -> {
            if (fault instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) fault;
        }, ContextStage.NONE, new SubagentLimit(fixture.runtime), fixture.router, fixture.chains, fixture.metrics,
                Clock.system());
        GatewayClient http = fixture.serve(ctx -> new ChatExchange(ctx.request(),
                Dialects.ANTHROPIC, broken).run(ctx.body().buffer()));

        // When a request comes
        Reply reply = http.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        // Then the exchange itself answers it, in the caller's dialect, and nothing reached the provider
        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo(type);
        assertThat(fixture.mock.requests()).isEmpty();
        return reply;
    }

    @Test
    void aSubagentCallOverItsDeadlineIs504AndFreesItsPlace() {
        fixture.mock.script(MockStep.builder().delayMs(5_000).build());
        GatewayClient http = serve(ContextStage.NONE);

        Reply reply = http.post("/v1/messages", anthropicRequest("claude-haiku-4", false), Map.of("x-agentfuse-subagent", "s1"));

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("subagents.defaultTimeout");
        Eventually.holds(fixture.vertx, () -> fixture.runtime.subagentBulkhead().inFlight() == 0);
        Eventually.holds(fixture.vertx, () -> fixture.mock.requests().get(0).clientDisconnected());
    }

    @Test
    void aCallerWhoLeavesCancelsTheChainAndIsCountedAs499() {
        fixture.mock.script(MockStep.builder().delayMs(10_000).build());
        GatewayClient http = serve(ContextStage.NONE);

        http.hangUp("/v1/messages", anthropicRequest("claude-haiku-4", false), Map.of(), HangUp.AFTER_SENDING);

        Eventually.holds(fixture.vertx, () -> !fixture.mock.requests().isEmpty()
                && fixture.mock.requests().get(0).clientDisconnected());
        Eventually.holds(fixture.vertx, () -> fixture.metrics.scrape().contains("status=\"499\""));
    }

    @Test
    void aStreamThatFailsAfterItsHeadIsCountedWithItsStatusNotAsACallerWhoLeft() {
        fixture.mock.script(MockStep.builder().chunks("one ", "two").drop(MockStep.Drop.MID_STREAM).build());
        GatewayClient http = serve(ContextStage.NONE);

        StreamReply reply = http.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        assertThat(reply.cutOff()).isTrue();
        Eventually.holds(fixture.vertx, () -> fixture.metrics.scrape().contains("status=\"200\""));
        assertThat(fixture.metrics.scrape()).doesNotContain("status=\"499\"");
    }
}
