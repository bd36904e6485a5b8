package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.upstream.UpstreamAuthException;
import io.agentfuse.gateway.upstream.UpstreamStatusException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailureResponderTest {

    private static StepFailure untranslatable(String step, String field) {
        return StepFailure.unservable(step, "cannot translate: " + field);
    }

    private static GatewayException answerTo(StepFailure... steps) {
        return FailureResponder.toGatewayError(new FallbackExhaustedException(List.of(steps)));
    }

    @Test
    void aChainWhoseEveryStepIsUntranslatableIs400NamingTheFields() {
        GatewayException error = answerTo(untranslatable("claude-haiku-4", "n=2"), untranslatable("claude-sonnet-4", "logprobs"));

        assertThat(error.error()).isEqualTo(GatewayError.UNTRANSLATABLE);
        assertThat(error.error().status()).isEqualTo(400);
        assertThat(error.getMessage()).contains("n=2", "logprobs");
    }

    @Test
    void anOpenBreakerBesideAnUntranslatableStepIsNeverCircuitOpen() {
        var open = io.agentfuse.core.breaker.CircuitBreaker.of("model:claude-sonnet-4",
                io.agentfuse.core.breaker.CircuitBreakerConfig.builder().build());
        open.open("test");
        StepFailure skippedOpen = StepFailure.circuitOpen("claude-sonnet-4", open.currentRejection().exception());

        GatewayException error = answerTo(skippedOpen, untranslatable("gpt-4o-mini", "web_search tools"));

        assertThat(error.error()).isEqualTo(GatewayError.ALL_FALLBACKS_FAILED);
        assertThat(error.getMessage()).contains("claude-sonnet-4", "web_search tools");
    }

    @Test
    void aFullBulkheadWithNothingCalledIs429OverloadedAfterOneSecond() {
        StepFailure busy = StepFailure.bulkheadFull("gpt-4o-mini", Bulkhead.of("gpt-4o-mini", 1).rejection());

        GatewayException error = answerTo(busy, untranslatable("claude-haiku-4", "n=2"));

        assertThat(error.error()).isEqualTo(GatewayError.OVERLOADED);
        assertThat(error.retryAfter()).contains(Duration.ofSeconds(1));
    }

    @Test
    void aChainEndingWithARefusedKeyIsUpstreamAuthFailedNamingTheProvider() {
        GatewayException error = answerTo(
                StepFailure.failed("claude-sonnet-4", Outcome.SERVER_ERROR, UpstreamStatusException.builder(500).body("").build()),
                StepFailure.failed("gpt-4o-mini", Outcome.ERROR, new UpstreamAuthException("openai", 401)));

        assertThat(error.error()).isEqualTo(GatewayError.UPSTREAM_AUTH_FAILED);
        assertThat(error.getMessage()).contains("provider openai", "providers.openai.apiKey");
    }

    @Test
    void aRefusedKeyBeforeAnotherFailureIsAllFallbacksFailed() {
        GatewayException error = answerTo(
                StepFailure.failed("gpt-4o-mini", Outcome.ERROR, new UpstreamAuthException("openai", 403)),
                StepFailure.failed("claude-haiku-4", Outcome.ERROR, new MalformedAnswerException("the answer is empty")));

        assertThat(error.error()).isEqualTo(GatewayError.ALL_FALLBACKS_FAILED);
        assertThat(error.getMessage()).contains("the answer is empty", "HTTP 403");
    }

    @Test
    void everyCalledStepTimingOutIs504EvenWithUntranslatableSteps() {
        GatewayException error = answerTo(
                StepFailure.failed("claude-haiku-4", Outcome.TIMEOUT, new CallTimeoutException(Duration.ofMillis(300))),
                untranslatable("gpt-4o-mini", "thinking"));

        assertThat(error.error()).isEqualTo(GatewayError.TIMEOUT);
    }

    @Test
    void aFailureWithoutAMessageIsDescribedWithoutJavaNames() {
        GatewayException error = FailureResponder.toGatewayError(new IllegalStateException());

        assertThat(error.error()).isEqualTo(GatewayError.ALL_FALLBACKS_FAILED);
        assertThat(error.getMessage()).isEqualTo("the model call failed: an unexpected failure");
    }

    @Test
    void theGatewaysOwnOutOfMemoryIsAShortOverloadNotTheModels() {
        GatewayException error = FailureResponder.toGatewayError(new OutOfMemoryError("Java heap space"));

        assertThat(error.error()).isEqualTo(GatewayError.OVERLOADED);
        assertThat(error.retryAfter()).contains(Duration.ofSeconds(1));
        assertThat(error.getMessage()).isEqualTo("the gateway had no memory left to serve the request (Java heap space); "
                + "retry in a moment, the model is not blamed for it");
    }

    @Test
    void theGatewaysOtherFaultsAreInternalErrorsNotTheModels() {
        GatewayException error = FailureResponder.toGatewayError(new StackOverflowError());

        assertThat(error.error()).isEqualTo(GatewayError.INTERNAL_ERROR);
        assertThat(error.getMessage()).startsWith("the gateway failed while serving the request (")
                .endsWith("); the model is not blamed for it");
    }

    @Test
    void anUpstreamClientErrorIsPassedThroughOverHttpWithTheGatewayHeaders() {
        try (PipelineFixture fixture = new PipelineFixture()) {
            CallTrace trace = new CallTrace();
            trace.attemptStarted("claude-haiku-4");
            UpstreamStatusException upstream = UpstreamStatusException.builder(422).body("{\"why\":\"bad\"}")
                    .contentType("application/problem+json").build();
            GatewayClient http = fixture.serve(ctx -> FailureResponder.respond(ctx.response(), Dialects.ANTHROPIC,
                    upstream, null, trace));

            Reply reply = http.post("/any", new JsonObject());

            assertThat(reply.status()).isEqualTo(422);
            assertThat(reply.body()).isEqualTo("{\"why\":\"bad\"}");
            assertThat(reply.header("content-type")).isEqualTo("application/problem+json");
            assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
            assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("1");
        }
    }

    @Test
    void aGatewayErrorIsAnsweredOverHttpInTheCallersDialectWithShouldRetry() {
        try (PipelineFixture fixture = new PipelineFixture()) {
            GatewayClient http = fixture.serve(ctx -> FailureResponder.respond(ctx.response(), Dialects.OPENAI,
                    new FallbackExhaustedException(List.of(untranslatable("claude-haiku-4", "n=2"))), null, new CallTrace()));

            Reply reply = http.post("/any", new JsonObject());

            assertThat(reply.status()).isEqualTo(400);
            assertThat(reply.header("x-should-retry")).isEqualTo("false");
            assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-haiku-4=untranslatable");
            assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        }
    }
}
