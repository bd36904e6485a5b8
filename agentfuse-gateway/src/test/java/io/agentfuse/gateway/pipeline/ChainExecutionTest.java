package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Clock;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** The guarded chain on its own, against the mock provider over loopback: claude-sonnet-4 → claude-haiku-4 → gpt-4o-mini. */
class ChainExecutionTest {

    private final PipelineFixture fixture = new PipelineFixture();
    private final CallTrace trace = new CallTrace();

    @AfterEach
    void stop() {
        fixture.close();
    }

    private CompletableFuture<FallbackResult<StepAnswer>> run(boolean stream) {
        ModelRequest request = fixture.request(Dialects.ANTHROPIC, anthropicRequest("claude-sonnet-4", stream), null);
        return fixture.chains.run(fixture.plan(request), stream ? Delivery.stream(Dialects.ANTHROPIC, false)
                : Delivery.complete(request.chat(), Clock.system()), trace, BudgetTicket.NONE);
    }

    /** Runs {@code plan} for a complete answer to {@code request}'s caller, no budget counting it. */
    private CompletableFuture<FallbackResult<StepAnswer>> complete(Plan plan, ModelRequest request, CallTrace trace) {
        return fixture.chains.run(plan, Delivery.complete(request.chat(), Clock.system()), trace, BudgetTicket.NONE);
    }

    private static <T> T await(CompletableFuture<T> future) {
        return Await.result(Future.fromCompletionStage(future));
    }

    @Test
    void aFailedStepPassesToTheNextAndEveryAttemptIsCounted() {
        fixture.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build());

        FallbackResult<StepAnswer> result = await(run(false));

        assertThat(result.value().step().name()).isEqualTo("claude-haiku-4");
        assertThat(result.passed()).extracting(failure -> failure.outcome()).containsExactly(Outcome.SERVER_ERROR);
        assertThat(trace.attempts()).isEqualTo(2);
        assertThat(trace.lastModel()).isEqualTo("claude-haiku-4");
    }

    @Test
    void aMalformedAnswerIsAFailedAttemptOfKindError() {
        fixture.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().body("{\"type\":\"message\",\"content\":").build());

        FallbackResult<StepAnswer> result = await(run(false));

        assertThat(result.value().step().name()).isEqualTo("claude-haiku-4");
        assertThat(result.passed()).extracting(failure -> failure.outcome()).containsExactly(Outcome.ERROR);
        assertThat(result.passed().get(0).reason()).contains("malformed anthropic answer");
    }

    @Test
    void aStreamWhoseFirstEventIsAnOverloadErrorFailsOverBeforeAnythingIsRelayed() {
        fixture.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().body("event: error\ndata: "
                + "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n").build());

        FallbackResult<StepAnswer> result = await(run(true));

        assertThat(result.value().stream()).isNotNull();
        assertThat(result.value().step().name()).isEqualTo("claude-haiku-4");
        assertThat(result.passed()).extracting(failure -> failure.outcome()).containsExactly(Outcome.OVERLOADED);
        result.value().stream().cancel();
    }

    @Test
    void anExhaustedChainFailsWithEveryStep() {
        fixture.mock.defaultStep(MockStep.builder().status(503).build());

        Throwable failure = Await.failure(Future.fromCompletionStage(run(false)));

        assertThat(OutcomeClassifier.unwrap(failure)).isInstanceOfSatisfying(FallbackExhaustedException.class,
                exhausted -> assertThat(exhausted.steps()).hasSize(3));
    }

    @Test
    void cancellingTheChainCancelsTheUpstreamCallInFlight() {
        fixture.mock.script(MockStep.builder().delayMs(10_000).build());
        CompletableFuture<FallbackResult<StepAnswer>> chain = run(false);
        Eventually.holds(fixture.vertx, () -> fixture.mock.requests().size() == 1);

        trace.abandon();
        chain.cancel(true);

        Eventually.holds(fixture.vertx, () -> fixture.mock.requests().get(0).clientDisconnected());
        assertThat(fixture.mock.requests()).hasSize(1);
    }

    @Test
    void requestsOfOneRouteRunOneChainMadeOnce() {
        ModelRequest request = fixture.request(Dialects.ANTHROPIC, anthropicRequest("claude-sonnet-4", false), null);
        Plan first = fixture.plan(request);
        await(complete(first, request, new CallTrace()));
        ChainExecution.Compiled made = first.route().compiled();

        Plan second = fixture.plan(request);
        FallbackResult<StepAnswer> result = await(complete(second, request, trace));

        assertThat(second.route()).isSameAs(first.route());
        assertThat(second.route().compiled()).isSameAs(made);
        assertThat(result.value().step().name()).isEqualTo("claude-sonnet-4");
        assertThat(trace.attempts()).isEqualTo(1);
    }

    @Test
    void aRouteRunByAnotherExecutionCountsInThatExecutionsMetrics() {
        ModelRequest request = fixture.request(Dialects.ANTHROPIC, anthropicRequest("claude-sonnet-4", false), null);
        await(complete(fixture.plan(request), request, new CallTrace()));
        GatewayMetrics other = new GatewayMetrics();

        await(new ChainExecution(fixture.client, other).run(fixture.plan(request), Delivery.complete(request.chat(), Clock.system()),
                trace, BudgetTicket.NONE));

        assertThat(other.scrape()).contains("agentfuse_upstream_attempts_total{model=\"claude-sonnet-4\",outcome=\"SUCCESS\"} 1.0");
    }

    @Test
    void aSubagentsRequestRunsItsOwnRoute() {
        ModelRequest direct = fixture.request(Dialects.ANTHROPIC, anthropicRequest("claude-sonnet-4", false), null);
        ModelRequest fromSubagent = fixture.request(Dialects.ANTHROPIC, anthropicRequest("claude-sonnet-4", false), "sub-1");

        assertThat(fixture.plan(fromSubagent).route()).isNotSameAs(fixture.plan(direct).route());
    }
}
